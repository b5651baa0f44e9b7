/**
 * Words, in every script: the one place Parley splits text into words. The keyword index and the
 * question planner, snippets and highlighting, the extractive model's quoting, citation
 * attribution and the viewer's highlighter all split with these functions, so a question's words
 * meet the index's.
 *
 * A word is a run of letters, digits and marks (WORD_CHAR), as FTS5's unicode61 tokenizer sees
 * it. Scripts written without spaces between words (Han, Hiragana, Katakana, Thai, Lao, Khmer,
 * Myanmar) make a whole sentence one such run; inside a run holding any of them, ICU's word
 * boundaries (`Intl.Segmenter`, in Node, Electron and every browser) split it into words, by
 * dictionary. Runs in other scripts are left as they are: English, German or Russian split exactly
 * as before, so their index and their rankings do not change.
 */

/** A character of a word, as the index splits words (letters, digits, marks). */
export const WORD_CHAR = '[\\p{L}\\p{N}\\p{M}]';

/** Scripts written without spaces between words: ICU's dictionaries split their runs. */
const SPACELESS_CHAR = '[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}]';
const SPACELESS = new RegExp(SPACELESS_CHAR, 'u');
const RUNS = new RegExp(`${WORD_CHAR}+`, 'gu');

export interface Word {
  /** The word as written (not lowercased). */
  text: string;
  /** Its offset in the text, in UTF-16 code units. */
  index: number;
}

// Made at first use: building ICU's word rules costs milliseconds, at start otherwise. The locale
// does not matter for these scripts (ICU picks the dictionary by script), so one segmenter serves all.
let segmenter: Intl.Segmenter | undefined;
const words = () => (segmenter ??= new Intl.Segmenter('en', { granularity: 'word' }));

/** True when the text holds a character of a script written without spaces between words. */
export function hasSpacelessScript(text: string): boolean {
  return SPACELESS.test(text);
}

/** The words of a text with their offsets, in order. */
export function* wordsOf(text: string): Generator<Word> {
  for (const run of text.matchAll(RUNS)) {
    const at = run.index;
    if (!SPACELESS.test(run[0])) {
      yield { text: run[0], index: at };
      continue;
    }
    // Inside a run every character is a word character, so every segment ICU returns is a word.
    for (const part of words().segment(run[0])) yield { text: part.segment, index: at + part.index };
  }
}

/**
 * `wordsOf(text)`, read from the text's `indexedText` (the keyword index stores it) instead of
 * running ICU again: the indexed text is the text with a space inserted between the words of each
 * spaceless run and nothing else changed, so its runs are the words and each inserted space shifts
 * the offsets by one. Without an indexed text (none was needed), the text's own runs are its words.
 */
export function* wordsAlong(text: string, indexed: string | null): Generator<Word> {
  if (indexed === null) {
    yield* wordsOf(text);
    return;
  }
  let inserted = 0;
  let last = 0;
  for (const run of indexed.matchAll(RUNS)) {
    // Spaces between `last` and this run that the text does not have were inserted (only ever
    // between two word characters, where the text has none).
    for (let j = last; j < run.index; j++) if (indexed[j] === ' ' && text[j - inserted] !== ' ') inserted++;
    yield { text: run[0], index: run.index - inserted };
    last = run.index + run[0].length;
  }
}

/** The words of a text, lowercased, in order (duplicates kept). */
export function wordList(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) out.push(word.text.toLowerCase());
  return out;
}

/**
 * The text the keyword index reads for a chunk: the text with a space between the words of each
 * spaceless run, so FTS5's unicode61 tokenizer sees ICU's words; `null` when the text holds no
 * such script (the index reads the text itself, exactly as before).
 */
export function indexedText(text: string): string | null {
  if (!SPACELESS.test(text)) return null;
  let out = '';
  let last = 0;
  for (const run of text.matchAll(RUNS)) {
    if (!SPACELESS.test(run[0])) continue;
    out += text.slice(last, run.index);
    let first = true;
    for (const part of words().segment(run[0])) {
      out += first ? part.segment : ` ${part.segment}`;
      first = false;
    }
    last = run.index + run[0].length;
  }
  return out + text.slice(last);
}
