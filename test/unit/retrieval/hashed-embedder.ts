import { createHash } from 'node:crypto';
import type { Embedder } from '../../../main/search/index.js';
import { STOP_WORDS } from '../../../main/search/keyword/stop-words.js';

/**
 * A deterministic stand-in for an embeddings endpoint: a hashed bag of words (stop words out, a
 * crude plural strip), signed, L2-normalised. Texts sharing words get close vectors; that is all
 * the tests and the bench need from it.
 */
export function hashedEmbedder(dimensions: number): Embedder & { calls: number } {
  const cache = new Map<string, [number, number]>();
  const bucket = (word: string): [number, number] => {
    let b = cache.get(word);
    if (!b) {
      const digest = createHash('sha1').update(word).digest();
      b = [digest.readUInt32LE(0) % dimensions, digest[4]! & 1 ? 1 : -1];
      cache.set(word, b);
    }
    return b;
  };
  const embedOne = (text: string): number[] => {
    const v = new Array<number>(dimensions).fill(0);
    for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      let word = match[0];
      if (STOP_WORDS.has(word)) continue;
      if (word.length > 4 && word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);
      const [i, sign] = bucket(word);
      v[i] = (v[i] ?? 0) + sign;
    }
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  const embed = Object.assign(
    async (texts: string[]): Promise<number[][]> => {
      embed.calls++;
      return texts.map(embedOne);
    },
    { calls: 0 },
  );
  return embed;
}
