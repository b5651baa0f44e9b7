/**
 * Text with a natural vocabulary, for the benches whose cost depends on it: FTS5 keeps a doclist
 * per distinct term, so indexing 20 MB of 17 distinct words (what the pipeline bench uploaded until
 * 2026-11-24) costs well under half what 20 MB of prose does. Word frequencies follow Zipf's law
 * (the r-th most common word is about 1/r as frequent as the most common one) over 50,000 words:
 * common English words at the head, pronounceable made-up ones after them. The retrieval bench
 * builds its corpus from the same vocabulary and sampler.
 */
import { prng } from './stats.js';

/** The most frequent English words, most frequent first: the head of the Zipf distribution. */
export const COMMON_ENGLISH = (
  'the of and to a in is that for it as was with be by on not he i this are or his from at which but have an they you were her ' +
  'she there one all we their been has would when who will more if no out so what up said about its than into them can only other ' +
  'new some time could these two may then do first any my now such like our over man me even most made after also did many before ' +
  'must through back years where much your way well down should because each just those people how too little state good very make ' +
  'world still own see men work long get here between both life being under never day same another know while last might us great ' +
  'old year off come since against go came right used take three'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'ch', 'cl', 'dr', 'fl', 'gr', 'pl', 'pr', 'sh', 'st', 'th', 'tr'];
const NUCLEI = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'm', 'nt', 'rd', 'st', 'x'];

/** Pronounceable made-up words after the common English ones; rank order is frequency order. */
export function vocabulary(size: number, rand: () => number): string[] {
  const pick = (list: string[]) => list[Math.floor(rand() * list.length)] ?? '';
  const words = [...COMMON_ENGLISH];
  const seen = new Set(words);
  while (words.length < size) {
    const syllables = 1 + Math.floor(rand() * 3) + (words.length > 2_000 ? 1 : 0);
    let word = '';
    for (let s = 0; s < syllables; s++) word += pick(ONSETS) + pick(NUCLEI) + (s === syllables - 1 ? pick(CODAS) : '');
    if (word.length < 3 || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  return words;
}

/** Zipf(s) over ranks 0..n-1 by Walker's alias method: O(1) per draw. */
export function zipf(n: number, s: number, rand: () => number): () => number {
  const weights = Array.from({ length: n }, (_, i) => 1 / Math.pow(i + 1, s));
  const sum = weights.reduce((a, b) => a + b, 0);
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  const small: number[] = [];
  const large: number[] = [];
  weights.forEach((w, i) => {
    prob[i] = (w / sum) * n;
    (prob[i]! < 1 ? small : large).push(i);
  });
  while (small.length > 0 && large.length > 0) {
    const l = small.pop()!;
    const g = large.pop()!;
    alias[l] = g;
    prob[g] = prob[g]! + prob[l]! - 1;
    (prob[g]! < 1 ? small : large).push(g);
  }
  for (const i of [...small, ...large]) prob[i] = 1;
  return () => {
    const u = rand() * n;
    const i = Math.floor(u);
    return u - i < prob[i]! ? i : alias[i]!;
  };
}

/** About `bytes` characters of sentences (14 words each) in paragraphs, the same for the same `seed`. */
export function naturalText(bytes: number, seed: number): string {
  const rand = prng(seed);
  const words = vocabulary(50_000, rand);
  const draw = zipf(words.length, 1.0, rand);
  let out = '';
  while (out.length < bytes) {
    let sentence = '';
    for (let i = 0; i < 14; i++) sentence += `${words[draw()]} `;
    out += `${sentence[0]!.toUpperCase()}${sentence.slice(1).trim()}.${rand() < 0.2 ? '\n\n' : ' '}`;
  }
  return out;
}
