import { mkdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HeaderCache } from '../../../main/core/models/local/discovery.js';
import { GgufError, readGgufHeader } from '../../../main/core/models/local/gguf-header.js';
import { HEADER_WINDOW, type HeaderFile } from '../../../main/core/models/local/gguf-reader.js';
import { makeGguf } from '../../fixtures/gguf.js';
import { arrayHead, GGUF_ARRAY, ggufStart, hugeStringEntry, stringEntry, u32Entry, writeHugeArrayGguf, writeHugeStringsGguf, writeSparse } from '../../fixtures/hostile-gguf.js';
import { startTestHttp, tempDir } from '../../support/core.js';

const scratch = tempDir('parley-hostile-gguf-');
afterAll(() => scratch.remove());
const MiB = 1024 * 1024;

/** Opens files for the reader as fs does, noting every read it asks for: what it allocates and reads. */
function watchedOpen() {
  const reads: { length: number; bytesRead: number }[] = [];
  let opens = 0;
  const openFile = async (path: string): Promise<HeaderFile> => {
    opens++;
    const fh = await open(path, 'r');
    return {
      read: async (buffer, offset, length, position) => {
        const result = await fh.read(buffer, offset, length, position);
        reads.push({ length, bytesRead: result.bytesRead });
        return result;
      },
      stat: () => fh.stat(),
      close: () => fh.close(),
    };
  };
  return {
    open: openFile,
    reads,
    opens: () => opens,
    bytesRead: () => reads.reduce((sum, r) => sum + r.bytesRead, 0),
    largestRead: () => Math.max(0, ...reads.map((r) => r.length)),
  };
}

const failsWith = (message: RegExp) => (e: unknown) => e instanceof GgufError && message.test(e.message);

describe('a hostile GGUF header', () => {
  it('of 80 strings of 64 MiB in a 5 GiB sparse file fails at the first one, reading one window', async () => {
    const path = join(scratch.dir, 'huge-strings.gguf');
    expect(writeHugeStringsGguf(path)).toBeGreaterThan(5 * 1024 ** 3);
    const io = watchedOpen();
    await expect(readGgufHeader(path, { open: io.open })).rejects.toSatisfy(failsWith(/^The GGUF header is larger than the 64 MB Parley reads \(a string reaches past it\)/));
    expect(io.reads.length).toBeGreaterThan(0);
    expect(io.largestRead()).toBeLessThanOrEqual(HEADER_WINDOW);
    expect(io.bytesRead()).toBeLessThanOrEqual(HEADER_WINDOW);
  });

  it('claiming 2^52 array elements over 1 GiB of zeros fails at once: the count is bounded by the bytes left', async () => {
    const path = join(scratch.dir, 'huge-array.gguf');
    writeHugeArrayGguf(path);
    const io = watchedOpen();
    await expect(readGgufHeader(path, { open: io.open })).rejects.toSatisfy(failsWith(/an array of 4503599627370496 strings reaches past it/));
    expect(io.bytesRead()).toBeLessThanOrEqual(HEADER_WINDOW);
  });

  it('steps over long values it does not need by their length, never loading them, and reads the keys it does', async () => {
    const path = join(scratch.dir, 'long-values.gguf');
    writeSparse(path, [
      ggufStart(5),
      ...hugeStringEntry('general.description', 40 * MiB),
      ...hugeStringEntry('tokenizer.chat_template', 10 * MiB),
      stringEntry('general.architecture', 'llama'),
      stringEntry('general.name', 'Long Values'),
      u32Entry('llama.context_length', 4096),
    ]);
    const io = watchedOpen();
    expect(await readGgufHeader(path, { open: io.open })).toMatchObject({ architecture: 'llama', name: 'Long Values', context_length: 4096 });
    expect(io.largestRead()).toBeLessThanOrEqual(HEADER_WINDOW);
    // The 50 MiB of values were sought past: a window at the start, and one after each of them.
    expect(io.reads).toHaveLength(3);
    expect(io.bytesRead()).toBeLessThan(3 * HEADER_WINDOW);
  });

  it('fails on an entry count the file cannot hold, nested arrays, and a read past its time budget', async () => {
    const manyEntries = join(scratch.dir, 'many-entries.gguf');
    writeSparse(manyEntries, [ggufStart(2n ** 40n)], 1024 ** 3);
    await expect(readGgufHeader(manyEntries)).rejects.toSatisfy(failsWith(/claims 1099511627776 entries/));

    const nested = join(scratch.dir, 'nested.gguf');
    writeSparse(nested, [ggufStart(1), arrayHead('x', GGUF_ARRAY, 1 << 20)], 64 * MiB);
    await expect(readGgufHeader(nested)).rejects.toSatisfy(failsWith(/array of arrays/));

    const model = join(scratch.dir, 'slow.gguf');
    writeFileSync(model, makeGguf());
    let time = 0;
    const now = () => (time += 6000) - 6000; // every look at the clock finds 6 s gone
    await expect(readGgufHeader(model, { now, budgetMs: 5000 })).rejects.toSatisfy(failsWith(/took too long/));
    expect(await readGgufHeader(model)).toMatchObject({ architecture: 'llama' });
  });

  it('is remembered as failed by path, size and mtime: a rescan does not read it again until it changes', async () => {
    const path = join(scratch.dir, 'remembered.gguf');
    writeHugeArrayGguf(path);
    const io = watchedOpen();
    const cache = new HeaderCache({ open: io.open });
    const first = await cache.read(path, 1024 ** 3, 1);
    expect(first).toMatchObject({ header: null, error: expect.stringMatching(/4503599627370496 strings/) as unknown });
    expect(await cache.read(path, 1024 ** 3, 1)).toEqual(first);
    expect(io.opens()).toBe(1);
    await cache.read(path, 1024 ** 3, 2);
    expect(io.opens()).toBe(2);
  });
});

describe('GET /models with hostile files in the models folder', () => {
  let h: Awaited<ReturnType<typeof startTestHttp>> | null = null;
  const data = tempDir();
  afterEach(async () => {
    await h?.close();
    h = null;
    data.remove();
  });

  it('lists each as failed with its reason, refuses to register one, and the server stays up', async () => {
    h = await startTestHttp({ dataDir: data.dir, folderEnv: () => ({ home: data.dir, platform: 'linux' }) });
    const models = join(data.dir, 'models');
    mkdirSync(models, { recursive: true });
    writeHugeStringsGguf(join(models, 'huge-strings.gguf'));
    writeHugeArrayGguf(join(models, 'huge-array.gguf'));

    // Registered by path while valid, then replaced by a hostile header.
    const swapped = join(data.dir, 'elsewhere', 'swapped.gguf');
    mkdirSync(join(swapped, '..'), { recursive: true });
    writeFileSync(swapped, makeGguf({ name: 'Swapped' }));
    const created = await h.api('/models', { method: 'POST', body: JSON.stringify({ provider: 'llama_cpp', model_path: swapped }) });
    expect(created.status).toBe(201);
    const { id: swappedId } = (await created.json()) as { id: string };
    writeHugeStringsGguf(swapped);

    const refused = await h.api('/models', { method: 'POST', body: JSON.stringify({ provider: 'llama_cpp', model_path: join(models, 'huge-array.gguf') }) });
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/4503599627370496 strings/);

    type Listed = { id: string; model: string; status: string; local: { state: string; error?: string } | null };
    for (let round = 0; round < 2; round++) {
      const res = await h.api('/models');
      expect(res.status).toBe(200);
      const list = ((await res.json()) as { data: Listed[] }).data;
      const byFile = (file: string) => list.find((m) => m.model === file);
      expect(byFile('huge-strings.gguf')).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: expect.stringMatching(/larger than the 64 MB Parley reads/) as unknown } });
      expect(byFile('huge-array.gguf')).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: expect.stringMatching(/4503599627370496 strings/) as unknown } });
      expect(list.find((m) => m.id === swappedId)).toMatchObject({ local: { state: 'failed', error: expect.stringMatching(/larger than the 64 MB/) as unknown } });
    }
    expect((await h.api('/health')).status).toBe(200);
  });
});
