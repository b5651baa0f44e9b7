import { STOP_WORDS } from '../../../search/index.js';

function counts(texts: string[]): { counts: Map<string, number>; total: number } {
  const map = new Map<string, number>();
  let total = 0;
  for (const text of texts) {
    for (const word of text.toLowerCase().match(/\p{L}[\p{L}'-]{2,}/gu) ?? []) {
      if (STOP_WORDS.has(word)) continue;
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
