import { wordsOf } from '../../../../shared/words.js';

/** How many words a text holds, split as the index splits them (a Chinese answer is not one word). */
export function wordCount(text: string): number {
  let count = 0;
  for (const _ of wordsOf(text)) count++;
  return count;
}
