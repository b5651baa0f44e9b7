import { wordsOf, type Word } from '../../../../shared/words.js';
import { STOP_WORDS } from '../../../search/index.js';

/** The longest a thread title is, in characters: about what the thread list shows on one line. */
export const TITLE_MAX_CHARS = 60;
/** A key phrase keeps at most this many words: a title, not the question again. */
const MAX_WORDS = 10;

/**
 * Stop words that join the words of one phrase ("allowance *for* remote staff", "设备*的*补贴",
 * "会議*の*資料") rather than say how the question is asked: a phrase may hold them between its
 * content words, never at its ends. Any other stop word ("is", "how", "please") ends a phrase.
 */
const LINKS: ReadonlySet<string> = new Set([
  ...'a an the of for in on at to with and or from by about between into per'.split(' '),
  '的',
  '和',
  '与',
  '及',
  'の',
  'と',
  'や',
  'ของ',
  'และ',
]);

/** Between two words of a phrase: spaces, or the hyphen or apostrophe of a compound; punctuation ends it. */
const JOINING_GAP = /^[\s\-'’]*$/u;

interface Span {
  from: Word;
  to: Word;
  content: number;
}

/**
 * A question's key phrase, for a title written without a model: its longest run of content words
 * (the question planner's terms: not stop words, split by shared/words.ts in every script), with
 * the joining words between them, as written, first letter capitalised. "How much is the equipment
 * allowance for remote staff?" → "Equipment allowance for remote staff"; `设备补贴是多少` → `设备补贴`.
 * Null when the question has no content word.
 */
export function keyPhrase(question: string): string | null {
  const text = question.slice(0, 2_000);
  const spans: Span[] = [];
  let open: Span | null = null;
  let previous: Word | null = null;
  for (const word of wordsOf(text)) {
    if (open && previous && !JOINING_GAP.test(text.slice(previous.index + previous.text.length, word.index))) {
      spans.push(open);
      open = null;
    }
    previous = word;
    const lower = word.text.toLowerCase();
    if (!STOP_WORDS.has(lower)) {
      const grown: Span = open ? { from: open.from, to: word, content: open.content + 1 } : { from: word, to: word, content: 1 };
      open = grown;
    }
    else if (open && !LINKS.has(lower)) {
      spans.push(open);
      open = null;
    }
  }
  if (open) spans.push(open);
  // The most content words; the first of equals.
  const span = spans.reduce<Span | null>((best, s) => (!best || s.content > best.content ? s : best), null);
  if (!span) return null;
  const phrase = capitalise(withoutTrailingStops(clip(text.slice(span.from.index, span.to.index + span.to.text.length).replace(/\s+/gu, ' '))));
  return phrase || null;
}

/** A clipped phrase ends on a content word, not on "for" or "the". */
function withoutTrailingStops(text: string): string {
  let end = text.length;
  for (const word of [...wordsOf(text)].reverse()) {
    if (!STOP_WORDS.has(word.text.toLowerCase())) break;
    end = word.index;
  }
  return text.slice(0, end).replace(/[\s\-'’]+$/u, '');
}

/** At most MAX_WORDS words and TITLE_MAX_CHARS characters, cut after a whole word (never inside "Remote-Mitarbeiter"). */
export function clip(text: string): string {
  let end = 0;
  let count = 0;
  for (const word of wordsOf(text)) {
    const wordEnd = word.index + word.text.length;
    if (count === MAX_WORDS || wordEnd > TITLE_MAX_CHARS) break;
    count++;
    if (!/^[-'’]\p{L}/u.test(text.slice(wordEnd, wordEnd + 2))) end = wordEnd;
  }
  // One word longer than a title (a URL, a long compound) is cut inside it rather than lost.
  return (end > 0 ? text.slice(0, end) : [...text].slice(0, TITLE_MAX_CHARS).join('')).trim();
}

/** The first letter in upper case when the first word is all lower case ("equipment", not "iPhone"). */
export function capitalise(text: string): string {
  const first = wordsOf(text).next().value;
  if (!first || first.index !== 0 || first.text !== first.text.toLocaleLowerCase()) return text;
  const [head = '', ...rest] = [...text];
  return head.toLocaleUpperCase() + rest.join('');
}
