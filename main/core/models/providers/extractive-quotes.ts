import { hasSpacelessScript, wordsOf } from '../../../../shared/words.js';
import { questionWords } from '../../../search/index.js';
import type { Passage } from '../../platform/ports/providers.js';

/**
 * What the extractive model quotes: whole sentences of the passages, the ones holding the most of
 * the question's terms first. A fixed word window around the matched terms cuts sentences in
 * two, and the part cut off is often the fact asked for ("…a one-time home-office allowance…"
 * without "of EUR 1,200"); a sentence carries its fact.
 */

export interface Quote {
  /** The passage it comes from, as cited: `[n]`. */
  index: number;
  text: string;
  /** Distinct question terms in it. */
  terms: number;
}

/** How many sentences an answer quotes. */
export const QUOTED_SENTENCES = 3;
/** A "sentence" longer than this (a table row, a list without full stops) is cut around its terms. */
const MAX_SENTENCE_CHARS = 600;

// Made at the first use: building ICU's sentence rules costs ~15 ms of CPU, at start otherwise.
// ICU ends sentences at 。！？ too, without the space after them that Latin text has.
let segmenter: Intl.Segmenter | undefined;
const LATIN = /\p{Script=Latin}/u;

/** The sentences of a text: each line on its own (headings and list items end without a full stop), then Intl's sentence boundaries. */
export function sentencesOf(text: string): string[] {
  return [...eachSentence(text)];
}

/** `sentencesOf`, one at a time: a caller that stops early does not segment the rest of a long text. */
export function* eachSentence(text: string): Generator<string> {
  for (const line of text.split(/\n+/)) {
    for (const { segment } of (segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })).segment(line)) {
      const sentence = segment.replace(/\s+/g, ' ').trim();
      if (sentence && /[\p{L}\p{N}]/u.test(sentence)) yield sentence;
    }
  }
}

/**
 * A light English stem, enough to match "allowances" to "allowance" and "pruned" to "prune":
 * plural and verb endings go, then a final "e".
 */
const ENDINGS: ReadonlyArray<readonly [RegExp, string]> = [
  [/ies$/, 'y'],
  [/ing$/, ''],
  [/ed$/, ''],
  [/(?<=[sxz]|ch|sh)es$/, ''],
  [/(?<!s)s$/, ''],
];

export function stem(word: string): string {
  let w = word.toLowerCase();
  // English endings mean nothing on a Chinese, Thai or Russian word: only Latin words are stemmed.
  if (!LATIN.test(w)) return w;
  for (const [ending, replacement] of ENDINGS) {
    if (!ending.test(w)) continue;
    const cut = w.replace(ending, replacement);
    if (cut.length >= 3) w = cut;
    break;
  }
  return w.length >= 4 && w.endsWith('e') ? w.slice(0, -1) : w;
}

/** The question's content words, stemmed. */
export function questionTerms(question: string): string[] {
  // questionWords splits with shared/words.ts, as sentences are split below.
  return [...new Set(questionWords(question).words.map(stem))];
}

/**
 * Whether a stemmed word is a term: the same, or (Latin, Cyrillic… words) a longer word starting
 * with it. A Chinese or Thai word is ICU's dictionary word: a longer one is another word, not an
 * inflection.
 */
const matches = (stemmed: string, term: string) => stemmed === term || (term.length >= 4 && stemmed.startsWith(term) && !hasSpacelessScript(stemmed));

/** How many distinct terms a sentence holds. */
function termsIn(sentence: string, terms: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const word of wordsOf(sentence)) {
    const s = stem(word.text);
    for (const term of terms) if (matches(s, term)) found.add(term);
  }
  return found;
}

/** A sentence too long to quote whole, cut at word boundaries around its first term. */
function clipAround(sentence: string, terms: readonly string[]): string {
  if (sentence.length <= MAX_SENTENCE_CHARS) return sentence;
  let first = 0;
  for (const word of wordsOf(sentence)) {
    const s = stem(word.text);
    if (terms.some((term) => matches(s, term))) {
      first = word.index;
      break;
    }
  }
  let from = Math.max(0, first - MAX_SENTENCE_CHARS / 3);
  let to = Math.min(sentence.length, from + MAX_SENTENCE_CHARS);
  if (hasSpacelessScript(sentence)) [from, to] = atWords(sentence, from, to);
  else {
    from = from === 0 ? 0 : sentence.indexOf(' ', from) + 1;
    to = to === sentence.length ? to : Math.max(from, sentence.lastIndexOf(' ', to));
  }
  return `${from > 0 ? '…' : ''}${sentence.slice(from, to).trim()}${to < sentence.length ? '…' : ''}`;
}

/**
 * `[from, to)` narrowed to whole words, for text whose words have no spaces between them (Chinese,
 * Japanese, Thai): from the first word starting at or after `from`, to the start of the first word
 * that does not end by `to`.
 */
function atWords(sentence: string, from: number, to: number): [number, number] {
  let start = from === 0 ? 0 : -1;
  let end = to;
  for (const word of wordsOf(sentence)) {
    if (start < 0) {
      if (word.index < from) continue;
      start = word.index;
    }
    if (word.index + word.text.length > to) {
      end = Math.min(word.index, to);
      break;
    }
  }
  if (start < 0) start = from;
  return [start, Math.max(start, end)];
}

/** Most words in a heading. */
const MAX_HEADING_WORDS = 8;

/** A block of one short line without a full stop, a digit or a list marker: a heading ("## Benefits", "Benefits"). */
function isHeading(block: string): boolean {
  const line = block.trim();
  if (line.includes('\n')) return false;
  if (/^#{1,6}\s/.test(line)) return true;
  if (/[.!?\u2026\u3002\uff01\uff1f:;,]["'\u201d\u2019)\]]*$/u.test(line) || /\p{N}/u.test(line) || /^[-*+\u2022]\s/.test(line)) return false;
  let words = 0;
  for (const word of wordsOf(line)) if (word.text && ++words > MAX_HEADING_WORDS) return false;
  return words > 0;
}

/**
 * What a passage offers to quote: its sentences, or its rows (a table's passage), never its
 * headings nor the section path and column header the index put before its text. A PDF breaks
 * every line: a sentence runs on over a single line break there.
 */
function* quotableOf(passage: Passage): Generator<{ text: string; row: boolean }> {
  let text = passage.text;
  const { section, row_start: rowStart, page } = passage.location;
  if (section && text.startsWith(`${section}: `)) text = text.slice(section.length + 2);
  if (rowStart !== undefined) {
    for (const line of text.replace(/^Columns: [^\n]*\n/, '').split('\n')) {
      const row = line.replace(/\s+/g, ' ').trim();
      if (row) yield { text: row, row: true };
    }
    return;
  }
  if (page !== undefined) text = text.replace(/(?<!\n)\n(?!\n)/g, ' ');
  for (const block of text.split(/\n{2,}/)) {
    if (isHeading(block)) continue;
    for (const sentence of eachSentence(block)) yield { text: sentence, row: false };
  }
}

/**
 * The sentences to quote, best first: most distinct question terms, then the better-ranked
 * passage, then the earlier sentence. A sentence met twice (passages overlap when one was read
 * with its neighbours) is quoted once, from the better passage. A heading is never quoted (it
 * answers nothing); a table row only when it holds as many of the question's terms as the best
 * quote (a row sharing one common word with the question is another row). Only when no sentence
 * holds a term (a match by meaning, not by words) are passages quoted by their snippet.
 */
export function quoteSentences(question: string, passages: readonly Passage[], limit = QUOTED_SENTENCES): Quote[] {
  const terms = questionTerms(question);
  const candidates: Array<Quote & { rank: number; position: number; row: boolean }> = [];
  const seen = new Set<string>();
  /** Passages with a sentence holding a term (even one quoted from a better passage). */
  const matched = new Set<number>();
  passages.forEach((passage, rank) => {
    let position = 0;
    for (const { text: sentence, row } of quotableOf(passage)) {
      position++;
      const count = termsIn(sentence, terms).size;
      if (count === 0) continue;
      matched.add(passage.index);
      const key = sentence.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({ index: passage.index, text: clipAround(sentence, terms), terms: count, rank, position, row });
    }
  });
  candidates.sort((a, b) => b.terms - a.terms || a.rank - b.rank || a.position - b.position);
  const best = candidates[0]?.terms ?? 0;
  const quotes: Quote[] = candidates
    .filter((c) => !c.row || c.terms >= best)
    .slice(0, limit)
    .map(({ index, text, terms: n }) => ({ index, text, terms: n }));
  for (const passage of passages) {
    if (quotes.length >= limit || matched.size > 0) break;
    const snippet = passage.snippet.replace(/\s+/g, ' ').trim();
    if (snippet) quotes.push({ index: passage.index, text: snippet, terms: 0 });
  }
  return quotes;
}
