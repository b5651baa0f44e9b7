/**
 * Issue 27, "the fuzz sweep learns the new shapes": generated hostile GGUF headers reach Parley
 * every way a model file can — dropped in `<data-dir>/models/`, registered by path (valid when
 * registered, then overwritten), and downloaded by URL — and `GET /models` answers 200 with each
 * listed as failed with the reader's reason, while the server stays up. The headers come from the
 * same generator as the reader's property test (test/fixtures/gguf-arbitrary.ts), so a new way
 * the reader can fail is swept here too.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GgufError, readGgufHeader } from '../../main/core/models/local/gguf-header.js';
import { startDownloadServer, type DownloadServer } from '../fixtures/download-server.js';
import { makeGguf } from '../fixtures/gguf.js';
import { arbitraryGguf, type GeneratedGguf } from '../fixtures/gguf-arbitrary.js';
import { writeSparse } from '../fixtures/hostile-gguf.js';
import { startTestHttp, tempDir } from '../support/core.js';

type Listed = { id: string; model: string; status: string; local: { state: string; error?: string } | null };

const data = tempDir('parley-gguf-sweep-');
const scratch = tempDir('parley-gguf-sweep-scratch-');
let h: Awaited<ReturnType<typeof startTestHttp>>;
let files: DownloadServer;

beforeAll(async () => {
  files = await startDownloadServer();
  h = await startTestHttp({ dataDir: data.dir, folderEnv: () => ({ home: data.dir, platform: 'linux' }), downloads: { backoffMs: () => 0, maxRetries: 1 } });
});
afterAll(async () => {
  await h.close();
  await files.close();
  data.remove();
  scratch.remove();
});

/**
 * `count` generated headers the reader refuses, each with the reason it gives (found by reading a
 * scratch copy: the sweep checks that the listing says what the reader says).
 */
async function hostileHeaders(count: number, seed: number, options: { validStart?: boolean; maxTail?: number } = {}): Promise<Array<GeneratedGguf & { reason: string }>> {
  const found: Array<GeneratedGguf & { reason: string }> = [];
  const samples = fc.sample(arbitraryGguf({ validStart: options.validStart ?? false }), { numRuns: 400, seed });
  for (const [i, sample] of samples.entries()) {
    const file = { bytes: sample.bytes, size: Math.min(sample.size, sample.bytes.length + (options.maxTail ?? Number.MAX_SAFE_INTEGER)) };
    if (file.bytes.length < 4 || file.bytes.subarray(0, 4).toString('latin1') !== 'GGUF') continue; // not even claiming to be a GGUF
    const path = join(scratch.dir, `probe-${seed}-${i}.gguf`);
    writeSparse(path, [file.bytes], file.size);
    const reason = await readGgufHeader(path).then(
      () => null,
      (error: unknown) => (error instanceof GgufError ? error.message : null),
    );
    if (reason) found.push({ ...file, reason });
    if (found.length === count) break;
  }
  expect(found).toHaveLength(count);
  return found;
}

async function listed(): Promise<Listed[]> {
  const res = await h.api('/models');
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Listed[] }).data;
}

describe('generated hostile GGUF headers, every way a model file reaches Parley', () => {
  it('in the models folder: GET /models lists each as failed with the reader’s reason, twice over, and the server stays up', async () => {
    const headers = await hostileHeaders(8, 27_01);
    const models = join(data.dir, 'models');
    mkdirSync(models, { recursive: true });
    headers.forEach((g, i) => writeSparse(join(models, `folder-${i}.gguf`), [g.bytes], g.size));
    for (let round = 0; round < 2; round++) {
      const list = await listed();
      headers.forEach((g, i) => {
        expect(list.find((m) => m.model === `folder-${i}.gguf`), `folder-${i}.gguf`).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: g.reason } });
      });
    }
    expect((await h.api('/health')).status).toBe(200);
  });

  it('registered by path, then overwritten: listed as failed with the reason; registering one outright is refused, never a 5xx', async () => {
    const headers = await hostileHeaders(6, 27_02);
    const elsewhere = join(data.dir, 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const ids: string[] = [];
    for (const [i, g] of headers.entries()) {
      const path = join(elsewhere, `by-path-${i}.gguf`);
      writeFileSync(path, makeGguf({ name: `By path ${i}` }));
      const created = await h.api('/models', { method: 'POST', body: JSON.stringify({ provider: 'llama_cpp', model_path: path }) });
      expect(created.status).toBe(201);
      ids.push(((await created.json()) as { id: string }).id);
      writeSparse(path, [g.bytes], g.size);

      const outright = join(elsewhere, `outright-${i}.gguf`);
      writeSparse(outright, [g.bytes], g.size);
      const refused = await h.api('/models', { method: 'POST', body: JSON.stringify({ provider: 'llama_cpp', model_path: outright }) });
      expect(refused.status, g.reason).toBe(415);
      expect(((await refused.json()) as { detail: string }).detail).toContain(g.reason);
    }
    const list = await listed();
    headers.forEach((g, i) => {
      expect(list.find((m) => m.id === ids[i])).toMatchObject({ local: { state: 'failed', error: g.reason } });
    });
    expect((await h.api('/health')).status).toBe(200);
  });

  it('downloaded by URL: the download completes, and the installed file is listed as failed with the reason', async () => {
    // A download is its bytes: no sparse tail beyond a few KB of zeros.
    const headers = await hostileHeaders(4, 27_03, { validStart: true, maxTail: 4096 });
    for (const [i, g] of headers.entries()) {
      const bytes = Buffer.concat([g.bytes, Buffer.alloc(g.size - g.bytes.length)]);
      const url = files.add(`/files/downloaded-${i}.gguf`, { bytes });
      const res = await h.api('/models/downloads', { method: 'POST', body: JSON.stringify({ url }) });
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as { id: string };
      const done = await vi.waitFor(
        async () => {
          const d = (await (await h.api(`/models/downloads/${id}`)).json()) as { status: string; error: string | null };
          if (!['complete', 'failed', 'cancelled'].includes(d.status)) throw new Error(`still ${d.status}`);
          return d;
        },
        { timeout: 15_000, interval: 20 },
      );
      expect(done).toMatchObject({ status: 'complete' });
    }
    const list = await listed();
    headers.forEach((g, i) => {
      expect(list.find((m) => m.model === `downloaded-${i}.gguf`), `downloaded-${i}.gguf`).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: g.reason } });
    });
    expect((await h.api('/health')).status).toBe(200);
  });
});
