import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheKey } from '../../main/launch/code-cache.js';
import { makeGguf } from '../fixtures/gguf.js';
import { SERVE_ENTRY, startServed, type Served } from '../support/served.js';

const BUNDLE = join(SERVE_ENTRY, '..', 'serve-main.cjs');
const CACHE = `${BUNDLE}.v8cache`;

const running: Served[] = [];
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop();
});

describe('served mode start-up: the code cache of the built bundle', () => {
  it('runs the bundle through the launcher, and a start leaves a cache for this bundle and this Node beside it', async () => {
    const served = await startServed();
    running.push(served);
    // The launcher ran the whole app: the API answers as served mode does.
    expect((await served.api('/health')).status).toBe(200);
    // Written after the ready line by the first start of this build (or an earlier test's start).
    await vi.waitFor(() => {
      expect(existsSync(CACHE)).toBe(true);
      expect(readFileSync(CACHE).subarray(0, 32).equals(cacheKey(readFileSync(BUNDLE, 'utf8')))).toBe(true);
    });
    // V8's own data follows the key: a cache of the code compiled while starting, not an empty file.
    expect(readFileSync(CACHE).length).toBeGreaterThan(100_000);
  });

  it('a start that runs from the cache still imports ES-module-only packages: a local GGUF model loads', async () => {
    // A start that leaves the cache, then one that runs from it (what every start after the first is).
    const first = await startServed();
    running.push(first);
    await vi.waitFor(() => expect(existsSync(CACHE) && readFileSync(CACHE).subarray(0, 32).equals(cacheKey(readFileSync(BUNDLE, 'utf8')))).toBe(true));
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-cache-local-'));
    try {
      mkdirSync(join(dataDir, 'models'), { recursive: true });
      writeFileSync(join(dataDir, 'models', 'tiny.gguf'), makeGguf({ name: 'Tiny Cached' }));
      const served = await startServed({ dataDir });
      running.push(served);
      const models = (await (await served.api('/models')).json()) as { data: Array<{ id: string; name: string }> };
      const tiny = models.data.find((m) => m.name === 'Tiny Cached');
      expect(tiny).toBeDefined();
      const loaded = await served.api(`/models/${tiny?.id ?? ''}/load`, { method: 'POST' });
      // node-llama-cpp is imported at the first load: from cached code on Node 20 that failed with
      // "A dynamic import callback was not specified", and the model was marked failed.
      expect(await loaded.json()).toMatchObject({ local: { state: 'loaded' } });
      expect(loaded.status).toBe(200);
    } finally {
      for (const s of running.splice(0)) await s.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
