import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../shared/config.js';
import { LocalEngine } from '../../../main/core/models/local/engine.js';
import { embeddingContextCount } from '../../../main/core/models/local/embedding-pool.js';
import { readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { makeGguf } from '../../fixtures/gguf.js';

// The generated embedding model has one token per byte and adds no special tokens: a text's first N
// tokens are its first N characters (ASCII), and its vector is the mean of its bytes' vectors.
const TRAINED = 64;
const dir = mkdtempSync(join(tmpdir(), 'parley-embed-pool-'));
const path = join(dir, 'embed.gguf');
writeFileSync(path, makeGguf({ kind: 'embedding', name: 'Unit Embed', contextLength: TRAINED }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function engine(threads: number): LocalEngine {
  const config = ConfigSchema.parse({ local_models: { threads, gpu: false, idle_unload_seconds: 0 } });
  return new LocalEngine({ config: () => config });
}

/** Varied ASCII text of `length` characters (so its first characters average differently from the whole). */
function text(length: number, seed: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += String.fromCharCode(97 + ((i * 7 + seed * 13 + ((i * i) % 11)) % 26));
  return out;
}

describe('embedding with a local model', { timeout: 60_000 }, () => {
  it('cuts an input longer than the trained length to its first tokens (no error past the context either)', async () => {
    const e = engine(1);
    try {
      const header = await readGgufHeader(path);
      // 700 tokens: more than the trained 64 and than the 512-token context.
      const long = text(700, 1);
      const [cut, first, shorter] = await e.embed(path, header, [long, long.slice(0, TRAINED), long.slice(0, TRAINED - 1)]);
      expect(cut).toHaveLength(64);
      expect(cut).toEqual(first);
      // One token fewer gives another vector: the cut keeps exactly the trained length.
      expect(shorter).not.toEqual(first);
    } finally {
      await e.close();
    }
  });

  it('several contexts give every text the vector it gets alone, in the order given', async () => {
    const texts = Array.from({ length: 12 }, (_, i) => text(5 + i * 9, i));
    const one = engine(1);
    const several = engine(3);
    try {
      const header = await readGgufHeader(path);
      const alone: number[][] = [];
      for (const t of texts) alone.push(...(await one.embed(path, header, [t])));
      // Two calls at once share the contexts; each keeps its own order.
      const [a, b] = await Promise.all([several.embed(path, header, texts), several.embed(path, header, [...texts].reverse())]);
      expect(a).toEqual(alone);
      expect(b).toEqual([...alone].reverse());
    } finally {
      await one.close();
      await several.close();
    }
  });

  it('uses the configured threads as contexts, else every core up to 4', () => {
    const cfg = (threads: number) => ConfigSchema.parse({ local_models: { threads } }).local_models;
    expect(embeddingContextCount(cfg(0), 2)).toBe(2);
    expect(embeddingContextCount(cfg(0), 16)).toBe(4);
    expect(embeddingContextCount(cfg(0), 1)).toBe(1);
    expect(embeddingContextCount(cfg(3), 2)).toBe(3);
  });
});
