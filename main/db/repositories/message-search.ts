import { wordsOf } from '../../../shared/words.js';

/**
 * What the user typed in the thread search, as an FTS5 match over `messages_fts` (migration 240),
 * or null when it holds no word. Typed text is never FTS5 syntax: only its words are kept (quotes,
 * `*`, `-`, `NEAR`, `:` and parentheses are not word characters, and a word is always quoted), so
 * no search can fail. Words written together (the words ICU finds inside `设备补贴`) must stay
 * together: they form one phrase. Every phrase must occur (FTS5's implicit AND), and the last
 * one is a prefix, since the user may still be typing it.
 */
export function messageMatch(typed: string): string | null {
  const phrases = phrasesOf(typed);
  if (phrases.length === 0) return null;
  // Words hold letters, digits and marks only: no quote to escape inside the phrase.
  return phrases.map((words, i) => `"${words.join(' ')}"${i === phrases.length - 1 ? '*' : ''}`).join(' ');
}

/** The typed words, those written together (no space or mark between) as one phrase. */
function phrasesOf(typed: string): string[][] {
  const phrases: string[][] = [];
  let end = -1;
  for (const word of wordsOf(typed)) {
    if (word.index === end && phrases.length > 0) phrases[phrases.length - 1]!.push(word.text);
    else phrases.push([word.text]);
    end = word.index + word.text.length;
  }
  return phrases;
}

/** The typed words, lowercased, for the snippet to centre on (the last one as the prefix it is matched as). */
export function typedWords(typed: string): string[] {
  return [...wordsOf(typed)].map((w) => w.text.toLowerCase());
}

/**
 * Accents off Latin, Greek and Cyrillic letters (what SQLite's `remove_diacritics 2` does), marks
 * elsewhere kept: in Thai or Devanagari they are part of the letter.
 */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{M}*)\p{M}/gu, '').normalize('NFC');
}

/**
 * The same search as messageMatch, as a PostgreSQL tsquery over `messages.words` (the words of
 * shared/words.ts, 'simple' configuration): words written together are a phrase (`<->`), every
 * phrase must occur, the last word is a prefix. Words hold letters, digits and marks only, so no
 * typed text is tsquery syntax.
 */
export function messageTsQuery(typed: string): string | null {
  const phrases = phrasesOf(foldAccents(typed));
  if (phrases.length === 0) return null;
  return phrases.map((words, i) => words.join(' <-> ') + (i === phrases.length - 1 ? ':*' : '')).join(' & ');
}
