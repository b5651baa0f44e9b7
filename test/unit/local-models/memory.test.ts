import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../../shared/config.js';
import { readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { estimateMemory, kvCacheBytes, sampledFreeMemory } from '../../../main/core/models/local/memory.js';
import { catalogFor } from '../../../main/core/models/local/downloads/recommended.js';
import { makeGguf } from '../../fixtures/gguf.js';

const GiB = 1024 ** 3;
const dir = mkdtempSync(join(tmpdir(), 'parley-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const localModels = (over: Record<string, unknown>) => ConfigSchema.parse({ local_models: over }).local_models;

describe('memory estimate', () => {
  it('counts a KV cache per sequence: Llama 3.1 8B at 8192 tokens × 2 answers holds 2 GiB of F16 keys and values', () => {
    const llama8b = { layers: 32, kv_heads: 8, key_length: 128, value_length: 128 };
    expect(kvCacheBytes(llama8b, 8192, 2)).toBe(2 * GiB);
    expect(kvCacheBytes(llama8b, 8192, 1)).toBe(GiB);
    // llama.cpp pads the cells to a multiple of 256.
    expect(kvCacheBytes(llama8b, 1000, 1)).toBe(kvCacheBytes(llama8b, 1024, 1));
    const estimate = estimateMemory({ weightsBytes: 4.6 * GiB, shape: llama8b, contextSize: 8192, sequences: 2 });
    expect(estimate.kv_cache_bytes).toBe(2 * GiB);
    expect(estimate.total_bytes).toBeGreaterThan(6.6 * GiB);
    // An embedding model keeps no cache between calls.
    expect(estimateMemory({ weightsBytes: GiB, shape: llama8b, contextSize: 8192, sequences: 2, embedding: true }).kv_cache_bytes).toBe(0);
  });

  it('reads the KV cache shape from a GGUF header (the generated model: 2 layers, 2 KV heads of 16)', async () => {
    const path = join(dir, 'm.gguf');
    writeFileSync(path, makeGguf());
    const header = await readGgufHeader(path);
    expect(header.shape).toEqual({ layers: 2, kv_heads: 2, key_length: 16, value_length: 16 });
    expect(header.projector).toBe(false);
    writeFileSync(path, makeGguf({ architecture: 'clip' }));
    expect((await readGgufHeader(path)).projector).toBe(true);
  });

  it('the catalogue’s figure grows with the context and the parallel answers (the KV cache), and says what no longer fits', () => {
    const entry = (cfg: Record<string, unknown>, id: string) => catalogFor(64 * GiB, dir, localModels(cfg)).find((m) => m.id === id)!;
    const one = entry({ parallel: 1, context_size: 8192 }, 'llama-3.1-8b-instruct');
    const two = entry({ parallel: 2, context_size: 8192 }, 'llama-3.1-8b-instruct');
    expect(two.ram_bytes - one.ram_bytes).toBe(GiB);
    expect(one.ram_bytes).toBeGreaterThan(one.size_bytes + GiB);
    // Phi-3.5 mini has no grouped-query attention: 384 KiB of cache per token, 6 GiB at 8192 × 2.
    const phi = entry({ parallel: 2, context_size: 8192 }, 'phi-3.5-mini-instruct');
    expect(phi.ram_bytes).toBeGreaterThan(phi.size_bytes + 6 * GiB);
    expect(catalogFor(8 * GiB, dir, localModels({ parallel: 2, context_size: 8192 })).find((m) => m.id === 'phi-3.5-mini-instruct')?.fits).toBe(false);
    // The model's shape sizes the figure but is not part of what the catalogue shows.
    expect(Object.keys(phi)).not.toContain('shape');
    // An embedding model's figure does not grow with the chat context.
    expect(entry({ parallel: 8, context_size: 32768 }, 'nomic-embed-text-v1.5').ram_bytes).toBe(entry({ parallel: 1 }, 'nomic-embed-text-v1.5').ram_bytes);
  });

  it('free memory is read off the caller’s path: a stale figure is returned and refreshed afterwards', async () => {
    let reads = 0;
    let clock = 0;
    const free = sampledFreeMemory(1000, () => ++reads * GiB, () => clock);
    expect(free()).toBe(GiB);
    clock = 5000;
    // Stale: the caller still gets the sampled figure at once, without a read.
    expect(free()).toBe(GiB);
    expect(reads).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(2);
    expect(free()).toBe(2 * GiB);
  });
});
