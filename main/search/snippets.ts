import { wordsAlong } from '../../shared/words.js';
import { fold } from './keyword/fold.js';
import type { PlannedTerm } from './keyword/plan.js';

const LEAD_CHARS = 200;

function lead(text: string): string {
  if (text.length <= LEAD_CHARS) return text;
  const cut = text.lastIndexOf(' ', LEAD_CHARS);
  return `${text.slice(0, cut > LEAD_CHARS / 2 ? cut : LEAD_CHARS)}…`;
}

/**
 * The window of at most `maxTokens` words with the most of the question's terms (then the most
 * occurrences, then the earliest), cut at word boundaries with ellipses. A word counts as a term
 * when it is the question's word or starts with the term's stem: close enough to what FTS5
 * matched, and far cheaper than asking FTS5 (which would seek every term's postings again).
 */
export function snippetOf(text: string, terms: ReadonlyArray<Pick<PlannedTerm, 'word' | 'stems'>>, maxTokens: number, indexed: string | null = null): string {
  const spans: Array<{ start: number; end: number; term: number }> = [];
  // Diacritics aside, as the index matched them: `parkgebuhren` finds (and shows) `Parkgebühren`.
  const folded = terms.map((t) => fold(t.word));
  // The text's words as the index reads them (ICU's words in Chinese, Japanese, Thai…), so a word inside a sentence counts.
  // With the chunk's stored words (`indexed`), ICU is not run again: ~1 ms a passage, 50 ms for 50 hits.
  for (const w of wordsAlong(text, indexed)) {
    const lower = w.text.toLowerCase();
    const bare = fold(lower);
    const term = terms.findIndex((t, i) => t.word === lower || t.stems.some((stem) => (stem.length >= 3 ? lower.startsWith(stem) : lower === stem)) || bare === folded[i]);
    spans.push({ start: w.index, end: w.index + w.text.length, term });
  }
  if (spans.length === 0) return lead(text);
  const size = Math.max(1, Math.min(maxTokens, spans.length));
  let best = -1;
  let bestDistinct = 0;
  let bestCount = 0;
  const counts = new Map<number, number>();
  let count = 0;
  for (let i = 0; i < spans.length; i++) {
    const entering = spans[i]!.term;
    if (entering >= 0) {
      counts.set(entering, (counts.get(entering) ?? 0) + 1);
      count++;
    }
    if (i >= size) {
      const leaving = spans[i - size]!.term;
      if (leaving >= 0) {
        const n = (counts.get(leaving) ?? 1) - 1;
        if (n === 0) counts.delete(leaving);
        else counts.set(leaving, n);
        count--;
      }
    }
    if (i >= size - 1 && (counts.size > bestDistinct || (counts.size === bestDistinct && count > bestCount))) {
      best = i - size + 1;
      bestDistinct = counts.size;
      bestCount = count;
    }
  }
  if (bestDistinct === 0) return lead(text);
  // Start the window a little before the first term when the window would otherwise end early.
  const first = spans.findIndex((sp, i) => i >= best && sp.term >= 0);
  const start = Math.max(0, Math.min(best, first - 2, spans.length - size));
  const end = Math.min(spans.length, start + size) - 1;
  const from = start === 0 ? 0 : spans[start]!.start;
  const to = end === spans.length - 1 ? text.length : spans[end]!.end;
  return `${start === 0 ? '' : '…'}${text.slice(from, to).trim()}${end === spans.length - 1 ? '' : '…'}`;
}

