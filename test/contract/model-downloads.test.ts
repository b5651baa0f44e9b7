import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestHttp, tempDir } from '../support/core.js';
import { startServed } from '../support/served.js';
import { ggufBytes, sha256, startDownloadServer, type DownloadServer } from '../fixtures/download-server.js';

type Download = {
  id: string;
  url: string;
  file_name: string;
  status: string;
  bytes_done: number;
  bytes_total: number | null;
  sha256_expected: string | null;
  sha256_source: string | null;
  sha256: string | null;
  error: string | null;
  resumes: number;
};

let h: Awaited<ReturnType<typeof startTestHttp>>;
let files: DownloadServer;

beforeAll(async () => {
  files = await startDownloadServer();
  // No back-off between retries: the tests wait on the download's state, never on a clock.
  h = await startTestHttp({ downloads: { backoffMs: () => 0, maxRetries: 3 } });
});
afterAll(async () => {
  await h.close();
  await files.close();
});

const dataDir = () => h.core.dataDir;
const start = async (body: Record<string, unknown>, token?: string) => {
  const res = await h.api('/models/downloads', { method: 'POST', body: JSON.stringify(body), ...(token ? { token } : {}) });
  return { status: res.status, body: (await res.json()) as Download & { code?: string } };
};
const get = async (id: string) => (await (await h.api(`/models/downloads/${id}`)).json()) as Download;
const settled = (id: string) =>
  vi.waitFor(
    async () => {
      const d = await get(id);
      if (!['complete', 'failed', 'cancelled'].includes(d.status)) throw new Error(`still ${d.status}`);
      return d;
    },
    { timeout: 15_000, interval: 20 },
  );
const partFiles = () => (existsSync(join(dataDir(), 'downloads')) ? readdirSync(join(dataDir(), 'downloads')) : []);

describe('model downloads', () => {
  it('resumes with Range after the connection drops half-way, verifies the given SHA-256 and moves the file into models/', async () => {
    const bytes = ggufBytes(600_000);
    const url = files.add('/files/dropped.gguf', { bytes, dropAt: 250_000 });
    const res = await start({ url, sha256: sha256(bytes).toUpperCase() });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ url, file_name: 'dropped.gguf', sha256_expected: sha256(bytes), sha256_source: 'given' });
    expect(['queued', 'downloading']).toContain(res.body.status);

    const done = await settled(res.body.id);
    expect(done).toMatchObject({ status: 'complete', bytes_done: 600_000, bytes_total: 600_000, sha256: sha256(bytes), error: null });
    expect(done.resumes).toBeGreaterThanOrEqual(1);
    const asked = files.requests.filter((r) => r.path === '/files/dropped.gguf');
    expect(asked[0]?.range).toBeNull();
    // The second request asked only for the rest, from where the first one broke off.
    const resumedFrom = Number(/^bytes=(\d+)-$/.exec(asked[1]?.range ?? '')?.[1]);
    expect(resumedFrom).toBeGreaterThan(0);
    expect(resumedFrom).toBeLessThanOrEqual(250_000);
    expect(asked[1]?.ifRange).toMatch(/^"/);
    expect(readFileSync(join(dataDir(), 'models', 'dropped.gguf')).equals(bytes)).toBe(true);
    expect(partFiles()).toEqual([]);
  });

  it('starts over when the file changed on the server between the drop and the resume (If-Range), instead of splicing two versions', async () => {
    const before = ggufBytes(300_000);
    const after = ggufBytes(320_000);
    const url = files.add('/files/changed.gguf', { bytes: before, dropAt: 100_000, replaceAfterDrop: after });
    const done = await settled((await start({ url })).body.id);
    expect(done).toMatchObject({ status: 'complete', bytes_total: 320_000, sha256: sha256(after) });
    const asked = files.requests.filter((r) => r.path === '/files/changed.gguf');
    expect(asked[1]?.range).toMatch(/^bytes=\d+-$/);
    expect(asked[1]?.ifRange).toBe(`"${sha256(before).slice(0, 16)}"`);
    expect(readFileSync(join(dataDir(), 'models', 'changed.gguf')).equals(after)).toBe(true);
  });

  it('verifies against the SHA-256 Hugging Face states on its redirect (X-Linked-Etag) when none is given', async () => {
    const bytes = ggufBytes(200_000);
    const url = files.add('/org/repo/resolve/main/linked.gguf', { bytes, linkedSha256: sha256(bytes) });
    const res = await start({ url });
    expect(res.status).toBe(202);
    const done = await settled(res.body.id);
    expect(done).toMatchObject({ status: 'complete', sha256_expected: sha256(bytes), sha256_source: 'server', sha256: sha256(bytes), bytes_total: 200_000 });
    expect(readFileSync(join(dataDir(), 'models', 'linked.gguf')).equals(bytes)).toBe(true);
  });

  it('fails on a checksum mismatch, says why, and removes the temporary file', async () => {
    const bytes = ggufBytes(150_000);
    const url = files.add('/files/corrupt.gguf', { bytes });
    const res = await start({ url, sha256: 'a'.repeat(64) });
    const done = await settled(res.body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('Checksum mismatch');
    expect(done.error).toContain(sha256(bytes));
    expect(done.error).toContain('a'.repeat(64));
    expect(partFiles()).toEqual([]);
    expect(existsSync(join(dataDir(), 'models', 'corrupt.gguf'))).toBe(false);
  });

  it('fails when the SHA-256 the server stated does not match what arrived', async () => {
    const bytes = ggufBytes(100_000);
    const url = files.add('/org/repo/resolve/main/tampered.gguf', { bytes, linkedSha256: 'b'.repeat(64) });
    const done = await settled((await start({ url })).body.id);
    expect(done).toMatchObject({ status: 'failed', sha256_source: 'server' });
    expect(done.error).toMatch(/Checksum mismatch.*the checksum the server stated/);
    expect(existsSync(join(dataDir(), 'models', 'tampered.gguf'))).toBe(false);
  });

  it('refuses a file that is not GGUF (a web page, say) as soon as its first bytes arrive', async () => {
    const url = files.add('/files/page.gguf', { bytes: Buffer.from('<!doctype html><title>Model card</title>'.repeat(100)) });
    const done = await settled((await start({ url })).body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/not a GGUF model file/);
    expect(partFiles()).toEqual([]);
    expect(existsSync(join(dataDir(), 'models', 'page.gguf'))).toBe(false);
  });

  it('fails clearly when the server does not have the file, without retrying', async () => {
    const before = files.requests.length;
    const done = await settled((await start({ url: `${files.url}/files/missing.gguf` })).body.id);
    expect(done).toMatchObject({ status: 'failed' });
    expect(done.error).toMatch(/answered 404/);
    expect(files.requests.length - before).toBe(1);
  });

  it('gives up after the retries when the server keeps failing, with the reason', async () => {
    const url = files.add('/files/down.gguf', { bytes: ggufBytes(10), status: 503 });
    const done = await settled((await start({ url })).body.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/after 3 retries.*503/);
  });

  it('cancels a running download: it stops, its temporary file goes, and it cannot be cancelled twice', async () => {
    const bytes = ggufBytes(300_000);
    const url = files.add('/files/slow.gguf', { bytes, holdAt: 100_000 });
    const { body } = await start({ url, name: 'Slow model' });
    expect(body.file_name).toBe('Slow model.gguf');
    await vi.waitFor(async () => expect((await get(body.id)).bytes_done).toBe(100_000), { timeout: 10_000, interval: 20 });
    expect(partFiles()).toEqual([`${body.id}.part`]);
    const res = await h.api(`/models/downloads/${body.id}`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Download).status).toBe('cancelled');
    await vi.waitFor(() => expect(partFiles()).toEqual([]), { timeout: 5_000, interval: 20 });
    expect((await get(body.id)).status).toBe('cancelled');
    const again = await h.api(`/models/downloads/${body.id}`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect(existsSync(join(dataDir(), 'models', 'Slow model.gguf'))).toBe(false);
    files.release();
  });

  it('never overwrites a different file of the same name; an identical one is kept as it is', async () => {
    const mine = ggufBytes(5_000);
    mkdirSync(join(dataDir(), 'models'), { recursive: true });
    writeFileSync(join(dataDir(), 'models', 'taken.gguf'), mine);
    const other = ggufBytes(6_000);
    const done = await settled((await start({ url: files.add('/a/taken.gguf', { bytes: other }) })).body.id);
    expect(done).toMatchObject({ status: 'complete', file_name: 'taken (2).gguf' });
    expect(readFileSync(join(dataDir(), 'models', 'taken.gguf')).equals(mine)).toBe(true);
    expect(readFileSync(join(dataDir(), 'models', 'taken (2).gguf')).equals(other)).toBe(true);

    const same = await settled((await start({ url: files.add('/b/taken.gguf', { bytes: mine }) })).body.id);
    expect(same).toMatchObject({ status: 'complete', file_name: 'taken.gguf', sha256: sha256(mine) });
    expect(readdirSync(join(dataDir(), 'models')).filter((f) => f.startsWith('taken')).sort()).toEqual(['taken (2).gguf', 'taken.gguf']);
  });

  it('refuses the same URL twice at once (409), and lists downloads newest first', async () => {
    const url = files.add('/files/twice.gguf', { bytes: ggufBytes(50_000), holdAt: 10_000 });
    const first = await start({ url });
    const second = await start({ url });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('conflict');
    const list = (await (await h.api('/models/downloads')).json()) as { data: Download[] };
    expect(list.data[0]?.id).toBe(first.body.id);
    await h.api(`/models/downloads/${first.body.id}`, { method: 'DELETE' });
    files.release();
  });

  it('accepts only http(s) URLs, checksums of 64 hex digits and plain file names (400)', async () => {
    for (const body of [
      { url: 'ftp://example.com/model.gguf' },
      { url: 'file:///etc/passwd' },
      { url: 'javascript:alert(1)' },
      { url: 'not a url' },
      { url: `${files.url}/x.gguf`, sha256: 'xyz' },
      { url: `${files.url}/x.gguf`, name: '../../escape.gguf' },
      { url: `${files.url}/x.gguf`, name: '.hidden' },
    ]) {
      const res = await start(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_argument');
    }
    expect((await h.api('/models/downloads/dl_doesnotexist')).status).toBe(404);
  });

  it('is for admins: members get 403 on downloads, but may read the catalogue', async () => {
    const created = (await (await h.api('/admin/users', { method: 'POST', body: JSON.stringify({ email: 'member@example.com', name: 'Member' }) })).json()) as { api_key: { key: string } };
    const token = created.api_key.key;
    expect((await start({ url: `${files.url}/files/x.gguf` }, token)).status).toBe(403);
    expect((await h.api('/models/downloads', { token })).status).toBe(403);
    expect((await h.api('/models/downloads/dl_abc', { token })).status).toBe(403);
    expect((await h.api('/models/downloads/dl_abc', { method: 'DELETE', token })).status).toBe(403);
    expect((await h.api('/models/catalog', { token })).status).toBe(200);
  });

  it('lists a catalogue of recommended chat models and embedding models (the small one first), with what each needs and whether it fits this machine', async () => {
    mkdirSync(join(dataDir(), 'models'), { recursive: true });
    writeFileSync(join(dataDir(), 'models', 'qwen2.5-0.5b-instruct-q4_k_m.gguf'), ggufBytes(100));
    const res = await h.api('/models/catalog');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      memory_total_bytes: number;
      data: Array<{ id: string; kind: string; size_bytes: number; ram_bytes: number; fits: boolean; license: string; url: string; downloaded: boolean; sha256: string | null }>;
    };
    expect(body.memory_total_bytes).toBe(totalmem());
    expect(body.data.filter((m) => m.kind === 'chat').length).toBeGreaterThanOrEqual(4);
    expect(body.data.filter((m) => m.kind === 'embedding').length).toBe(2);
    expect(body.data[0]?.kind).toBe('embedding');
    for (const m of body.data) {
      expect(m.url).toMatch(/^https:\/\/huggingface\.co\/.+\.gguf$/);
      expect(m.license).not.toBe('');
      expect(m.ram_bytes).toBeGreaterThan(m.size_bytes);
      expect(m.fits).toBe(m.ram_bytes <= totalmem());
    }
    expect(body.data.find((m) => m.id === 'qwen2.5-0.5b-instruct')?.downloaded).toBe(true);
    expect(body.data.find((m) => m.id === 'llama-3.1-8b-instruct')?.downloaded).toBe(false);
  });
});

describe('disk problems', () => {
  it('fail the download with the reason when the models folder cannot be written', async () => {
    const other = await startTestHttp({ downloads: { backoffMs: () => 0 } });
    try {
      // A file where the models folder should be: nothing can be placed in it.
      writeFileSync(join(other.core.dataDir, 'models'), 'not a folder');
      const url = files.add('/files/nowhere.gguf', { bytes: ggufBytes(20_000) });
      const res = await other.api('/models/downloads', { method: 'POST', body: JSON.stringify({ url }) });
      const { id } = (await res.json()) as Download;
      const done = await vi.waitFor(
        async () => {
          const d = (await (await other.api(`/models/downloads/${id}`)).json()) as Download;
          if (d.status === 'downloading' || d.status === 'queued' || d.status === 'verifying') throw new Error(d.status);
          return d;
        },
        { timeout: 10_000, interval: 20 },
      );
      expect(done.status).toBe('failed');
      expect(done.error).toMatch(/the models folder could not be written/);
      // The bytes are sound: they stay for the next download of the URL once the folder is fixed.
      expect(done.error).toMatch(/downloaded so far are kept/);
      expect(readdirSync(join(other.core.dataDir, 'downloads'))).toEqual([`${id}.part`]);
    } finally {
      await other.close();
    }
  });
});

describe('a download across a restart (served mode)', () => {
  it('resumes from the bytes already on disk when Parley starts again on the same data directory', async () => {
    const bytes = ggufBytes(400_000);
    const url = files.add('/files/restart.gguf', { bytes, holdAt: 150_000 });
    const dir = tempDir('parley-restart-');
    try {
      const first = await startServed({ dataDir: dir.dir });
      const created = (await (await first.api('/models/downloads', { body: { url, sha256: sha256(bytes) } })).json()) as Download;
      await vi.waitFor(async () => expect(((await (await first.api(`/models/downloads/${created.id}`)).json()) as Download).bytes_done).toBe(150_000), { timeout: 10_000, interval: 20 });
      // Stop Parley mid-download, then let the held connection go: the next start must resume.
      await first.stop();
      files.release();
      const second = await startServed({ dataDir: dir.dir, adminApiKey: first.apiKey });
      try {
        const done = await vi.waitFor(
          async () => {
            const d = (await (await second.api(`/models/downloads/${created.id}`)).json()) as Download;
            if (d.status !== 'complete') throw new Error(`${d.status} ${d.error ?? ''}`);
            return d;
          },
          { timeout: 15_000, interval: 50 },
        );
        expect(done).toMatchObject({ sha256: sha256(bytes), bytes_done: 400_000 });
        expect(done.resumes).toBeGreaterThanOrEqual(1);
        const asked = files.requests.filter((r) => r.path === '/files/restart.gguf');
        expect(asked).toHaveLength(2);
        expect(asked[1]?.range).toBe('bytes=150000-');
        expect(readFileSync(join(dir.dir, 'models', 'restart.gguf')).equals(bytes)).toBe(true);
        expect(second.output()).toMatch(/Resuming 1 model download/);
      } finally {
        await second.stop();
      }
    } finally {
      dir.remove();
    }
  });
});
