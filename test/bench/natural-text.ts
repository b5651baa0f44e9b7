/**
 * Text with a natural vocabulary, for benches whose cost depends on it: FTS5 keeps a doclist per
 * distinct term, so indexing 20 MB of 17 distinct words (what the pipeline bench uploaded until
 * 2026-11-24) costs well under half what 20 MB of prose does. Word frequencies follow Zipf's law
 * (the r-th most common word is about 1/r as frequent as the most common one) over 50,000 words:
 * common English words at the head, made-up ones of two or three syllables after them.
 */
import { prng } from './stats.js';

const COMMON = 'the of and to in is that for it as with was on be by this are from or have an they which one you were her all she there would their we him been has when who will more no if out so said what up its about into than them can only other new some could time these two may then do first any my now such like our over man'.split(' ');
const VOCABULARY = 50_000;
const SYLLABLES = 'bcdfghjklmnprstvwxz'.split('').flatMap((c) => 'aeiou'.split('').map((v) => c + v));

/** The word of rank `rank` (0 the most common). */
function word(rank: number): string {
  if (rank < COMMON.length) return COMMON[rank]!;
  let n = rank - COMMON.length;
  let out = '';
  do {
    out += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0 || out.length < 4);
  return out;
}

/** About `bytes` characters of sentences (14 words each) in paragraphs, the same for the same `seed`. */
export function naturalText(bytes: number, seed: number): string {
  const rand = prng(seed);
  const words = Array.from({ length: VOCABULARY }, (_, rank) => word(rank));
  const logV = Math.log(VOCABULARY);
  let out = '';
  while (out.length < bytes) {
    let sentence = '';
    // A rank drawn log-uniformly is Zipf-distributed: P(rank < r) = ln r / ln V.
    for (let i = 0; i < 14; i++) sentence += `${words[Math.min(VOCABULARY, Math.floor(Math.exp(logV * rand()))) - 1]} `;
    out += `${sentence[0]!.toUpperCase()}${sentence.slice(1).trim()}.${rand() < 0.2 ? '\n\n' : ' '}`;
  }
  return out;
}
