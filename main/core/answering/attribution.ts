import type { Attribution } from '../../../shared/events.js';
import { citedIndices } from '../../../shared/citations.js';
import { eachSentence, stem } from '../models/providers/extractive-quotes.js';
import { wordsOf } from '../../../shared/words.js';
import { STOP_WORDS } from '../../search/index.js';

/**
 * Which passages an answer draws on. An answer that cites with `[n]` is taken at its word. One
 * that cites nothing (small local models rarely write markers) is attributed sentence by sentence:
 * a sentence is credited to the passage holding most of its content words, when that passage holds
 * at least half of them and one word the question did not ask with, and to no passage otherwise — a
 * source named must hold what was said, and repeating the question ("I don't know when the lamp is
 * lit") says nothing a passage holds.
 */

/** A passage the answer may cite, with the text it was given (or, when that is not at hand, its snippet). */
export interface CitableSource<C> {
  citation: C;
  text: string;
}

/** The share of a sentence's content words a passage must hold for the sentence to be credited to it. */
export const MIN_CONTAINMENT = 0.5;
/** Fewer shared content words than this is chance ("Yes, it is."), not drawing on a passage. */
export const MIN_SHARED_TERMS = 2;

/**
 * A text's content words: lowercased, stemmed, stop words and single letters out. Words as
 * shared/words.ts splits them, so a Chinese, Japanese or Thai sentence is its dictionary words,
 * as the index sees them (a one-character word there is mostly a particle: 的, は, 是, out too).
 */
export function contentTerms(text: string): Set<string> {
  const terms = new Set<string>();
  for (const { text: found } of wordsOf(text.toLowerCase())) {
    // One character (a Han character beyond the BMP is two code units, and one character too).
    const single = found.length < 2 || (found.length === 2 && found.codePointAt(0)! > 0xffff);
    if (single || STOP_WORDS.has(found)) continue;
    terms.add(stem(found));
  }
  return terms;
}

/** The index of the source that holds the most of `terms` (the best-ranked on a tie), if it holds enough and more than the question. */
function bestSource(terms: ReadonlySet<string>, sources: ReadonlyArray<ReadonlySet<string>>, asked: ReadonlySet<string>): number | null {
  let best: number | null = null;
  let bestShared = 0;
  sources.forEach((source, i) => {
    let shared = 0;
    let beyondQuestion = 0;
    for (const term of terms) {
      if (!source.has(term)) continue;
      shared++;
      if (!asked.has(term)) beyondQuestion++;
    }
    if (beyondQuestion > 0 && shared > bestShared) {
      best = i;
      bestShared = shared;
    }
  });
  if (best === null || bestShared < MIN_SHARED_TERMS || bestShared / terms.size < MIN_CONTAINMENT) return null;
  return best;
}

/** Counts the sentences attribution examined (what its cost grows with), for tests. */
export interface AttributionWork {
  sentences: number;
}

/**
 * The citations of an answer, each saying how it was attributed. With markers naming a passage:
 * those passages (`marker`). Without: the passages its sentences draw on (`overlap`), in the order
 * the passages were given. Sources are in that order too; duplicate indices are cited once.
 */
export function attributeCitations<C extends { index: number }>(
  sources: ReadonlyArray<CitableSource<C>>,
  answer: string,
  question = '',
  work?: AttributionWork,
): Array<C & { attribution: Attribution }> {
  // Nothing to credit: a long answer without sources (most chats) costs nothing here. It cost a
  // runaway answer of 128 KB ~100 ms of the main thread at its end, inside the final save.
  if (sources.length === 0) return [];
  const marked = citedIndices(answer);
  const known = sources.filter((s) => marked.has(s.citation.index));
  if (known.length > 0) return once(known.map((s) => ({ ...s.citation, attribution: 'marker' as const })));

  const sourceTerms = sources.map((s) => contentTerms(s.text));
  const asked = contentTerms(question);
  const credited = new Set<number>();
  for (const sentence of eachSentence(answer)) {
    if (work) work.sentences++;
    const terms = contentTerms(sentence);
    const best = bestSource(terms, sourceTerms, asked);
    if (best !== null) credited.add(best);
    // Every source credited: the rest of a long answer cannot change the result.
    if (credited.size === sources.length) break;
  }
  return once(sources.filter((_, i) => credited.has(i)).map((s) => ({ ...s.citation, attribution: 'overlap' as const })));
}

function once<C extends { index: number }>(citations: C[]): C[] {
  const seen = new Set<number>();
  return citations.filter((c) => !seen.has(c.index) && seen.add(c.index));
}
