import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheKey } from '../../main/launch/code-cache.js';
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
});
