import { hasSpacelessScript, wordsOf } from '../../../../shared/words.js';
import { STOP_WORDS } from '../../../search/index.js';

const LETTERS = /^[\p{L}\p{M}]+$/u;

/**
 * The words a term can be: letters only (no numbers), words as shared/words.ts splits them (so a
 * Chinese text gives its words, not one "word" a sentence), and two joined by one hyphen or
 * apostrophe kept as one ("home-office", "o'clock"). Three letters at least, two in Chinese,
 * Japanese or Thai, where two characters make many a word (设备, 補助).
 */
export function* termWords(text: string): Generator<string> {
  let pending: { word: string; end: number } | null = null;
  for (const { text: word, index } of wordsOf(text)) {
    const joiner: string | undefined = pending && index === pending.end + 1 ? text[pending.end] : undefined;
    if (pending && (joiner === '-' || joiner === "'") && !hasSpacelessScript(word) && !hasSpacelessScript(pending.word)) {
      pending = { word: `${pending.word}${joiner}${word}`, end: index + word.length };
      continue;
    }
    if (pending) yield pending.word;
    pending = { word, end: index + word.length };
  }
  if (pending) yield pending.word;
}

function isTerm(word: string): boolean {
  if (!LETTERS.test(word.replace(/['-]/g, ''))) return false;
  return [...word].length >= (hasSpacelessScript(word) ? 2 : 3);
}

function counts(texts: string[]): { counts: Map<string, number>; total: number } {
  const map = new Map<string, number>();
  let total = 0;
  for (const text of texts) {
    for (const word of termWords(text.toLowerCase())) {
      if (!isTerm(word) || STOP_WORDS.has(word)) continue;
      map.set(word, (map.get(word) ?? 0) + 1);
      total++;
    }
  }
  return { counts: map, total };
}

/**
 * The words most characteristic of a dataset: frequent in it and rarer elsewhere, scored by the
 * log-odds of a word here against the whole corpus (with add-one smoothing so unseen words count).
 */
export function characteristicTerms(datasetTexts: string[], corpusTexts: string[], top = 15): Array<{ term: string; count: number }> {
  const here = counts(datasetTexts);
  const all = counts(corpusTexts);
  const vocabulary = new Set([...here.counts.keys(), ...all.counts.keys()]).size || 1;
  return [...here.counts.entries()]
    .filter(([, n]) => n >= 2)
    .map(([term, n]) => {
      const p = (n + 1) / (here.total + vocabulary);
      const q = ((all.counts.get(term) ?? 0) + 1) / (all.total + vocabulary);
      return { term, count: n, score: Math.log(p / q) * Math.log1p(n) };
    })
    .sort((a, b) => b.score - a.score || a.term.localeCompare(b.term))
    .slice(0, top)
    .map(({ term, count }) => ({ term, count }));
}
