import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { startTestHttp, tempDir } from '../support/core.js';

type Artifact = { id: string; key: string; status: string; progress: number; mime_type: string | null; size: number; chunk_count: number; error: { code: string; detail: string } | null };
type Upload = { upload_id: string; status: string; files: Array<{ key: string; artifact_id: string; part_size: number; urls: Array<{ part: number; url: string; size: number }> }>; artifacts: Artifact[] };

let clock = Date.now();
let h: Awaited<ReturnType<typeof startTestHttp>>;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dir = tempDir();
  // Parts of 256 KB, so a 3 MB file goes up in 12 parts.
  writeFileSync(join(dir.dir, 'parley.toml'), CONFIG_TEMPLATE.replace('part_size_mb = 8', 'part_size_mb = 0.25').replace('max_file_mb = 100', 'max_file_mb = 5'));
  h = await startTestHttp({ dataDir: dir.dir, now: () => new Date(clock) });
});
afterAll(async () => {
  await h.close();
  dir.remove();
});

const json = async <T>(path: string, method = 'GET', body?: unknown, token?: string) => {
  const res = await h.api(path, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }), ...(token ? { token } : {}) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
};

async function newDataset(name = 'Docs') {
  const res = await json<{ id: string; kb_id: string }>('/datasets', 'POST', { name });
  expect(res.status).toBe(201);
  return res.body;
}

/** Uploads files through signed part URLs, as any HTTP client would, and completes the upload. */
async function upload(kbId: string, files: Array<{ key: string; bytes: Buffer; mime_type?: string }>) {
  const created = await json<Upload>('/uploads', 'POST', {
    kb_id: kbId,
    files: files.map((f) => ({ key: f.key, filename: f.key.split('/').pop(), size: f.bytes.length, ...(f.mime_type ? { mime_type: f.mime_type } : {}) })),
  });
  expect(created.status).toBe(201);
  for (const file of created.body.files) {
    const bytes = files.find((f) => f.key === file.key)?.bytes ?? Buffer.alloc(0);
    for (const url of file.urls) {
      const part = bytes.subarray((url.part - 1) * file.part_size, url.part * file.part_size);
      const res = await fetch(url.url, { method: 'PUT', body: bytesOf(part), headers: { 'content-type': 'application/octet-stream' } });
      expect(res.status, await res.clone().text()).toBe(200);
    }
  }
  const done = await json<Upload>(`/uploads/${created.body.upload_id}/complete`, 'POST', {});
  expect(done.status).toBe(200);
  return done.body;
}

/** The artifact once the ingest queue has nothing left to do (its upload is complete by then). */
async function settled(kbId: string, key: string): Promise<Artifact> {
  await h.core.runtime.ingest.idle();
  return (await json<Artifact>(`/knowledge-bases/${kbId}/artifacts/${encodeURIComponent(key)}`)).body;
}

/** fetch() bodies are Uint8Arrays; Buffers are typed apart. */
const bytesOf = (b: Buffer): Uint8Array<ArrayBuffer> => Uint8Array.from(b);

const paragraph = (i: number) => `Section ${i}. The lighthouse keeper logs the tide at dawn; entry ${i} notes calm water and a northern wind.\n\n`;

describe('datasets', () => {
  it('are created with a knowledge base, listed, read, renamed', async () => {
    const ds = await newDataset('Field notes');
    expect(ds.kb_id).toMatch(/^kb_/);
    expect((await json<{ name: string }>(`/datasets/${ds.id}`, 'PATCH', { name: 'Field notes 2' })).body.name).toBe('Field notes 2');
    const list = await json<{ data: Array<{ id: string }> }>('/datasets');
    expect(list.body.data.map((d) => d.id)).toContain(ds.id);
  });
});

describe('signed multi-part uploads', () => {
  it('a 3 MB file goes up in several signed parts, without a bearer token, then is processed to ready and served back', async () => {
    const ds = await newDataset();
    let text = '';
    for (let i = 0; text.length < 3 * 1024 * 1024; i++) text += paragraph(i);
    const bytes = Buffer.from(text);
    const created = await json<Upload>('/uploads', 'POST', { kb_id: ds.kb_id, files: [{ key: 'logbook.txt', filename: 'logbook.txt', size: bytes.length }] });
    const file = created.body.files[0];
    expect(file?.urls.length).toBe(Math.ceil(bytes.length / (256 * 1024)));
    expect(created.body.artifacts[0]?.status).toBe('pending');
    for (const url of file?.urls ?? []) {
      const res = await fetch(url.url, { method: 'PUT', body: bytesOf(bytes.subarray((url.part - 1) * (file?.part_size ?? 0), url.part * (file?.part_size ?? 0))) });
      expect(res.status).toBe(200);
    }
    const during = await json<Artifact>(`/knowledge-bases/${ds.kb_id}/artifacts/logbook.txt`);
    expect(during.body).toMatchObject({ status: 'uploading', progress: 1 });
    const done = await json<Upload>(`/uploads/${created.body.upload_id}/complete`, 'POST', {});
    expect(done.body.status).toBe('completed');
    const ready = await settled(ds.kb_id, 'logbook.txt');
    expect(ready).toMatchObject({ status: 'ready', mime_type: 'text/plain', size: bytes.length });
    expect(ready.chunk_count).toBeGreaterThan(100);

    const content = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts/logbook.txt/content`);
    expect(content.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses tampered and expired URLs, and wrong sizes; re-sending a part is harmless', async () => {
    const ds = await newDataset();
    const bytes = Buffer.from('hello tide tables '.repeat(1000));
    const created = await json<Upload>('/uploads', 'POST', { kb_id: ds.kb_id, files: [{ key: 'a.txt', filename: 'a.txt', size: bytes.length }] });
    const url = new URL(created.body.files[0]?.urls[0]?.url ?? '');
    const put = (u: URL | string, body: Buffer) => fetch(u, { method: 'PUT', body: bytesOf(body) });

    const forged = new URL(url);
    forged.searchParams.set('signature', `${url.searchParams.get('signature')?.slice(0, -2)}xx`);
    expect((await put(forged, bytes)).status).toBe(403);
    const resized = new URL(url);
    resized.searchParams.set('size', '5');
    expect((await put(resized, bytes.subarray(0, 5))).status).toBe(403);
    const otherPart = new URL(url.href.replace('/parts/', '/parts/').replace(/\/1\?/, '/2?'));
    expect((await put(otherPart, bytes)).status).toBe(403);
    expect((await put(url, bytes.subarray(0, 10))).status).toBe(400);
    expect((await put(url, Buffer.concat([bytes, Buffer.from('extra')]))).status).toBe(413);

    expect((await put(url, bytes)).status).toBe(200);
    expect((await put(url, bytes)).status).toBe(200);

    clock += 2 * 3600 * 1000;
    const expired = await put(url, bytes);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
    expect((await json<Upload>(`/uploads/${created.body.upload_id}`)).body.status).toBe('expired');
    clock -= 2 * 3600 * 1000;
  });

  it('a file with missing parts fails saying which; a file over the limit fails as too_large without URLs', async () => {
    const ds = await newDataset();
    const created = await json<Upload>('/uploads', 'POST', {
      kb_id: ds.kb_id,
      files: [
        { key: 'partial.txt', filename: 'partial.txt', size: 600_000 },
        { key: 'huge.txt', filename: 'huge.txt', size: 6 * 1024 * 1024 },
      ],
    });
    const huge = created.body.files.find((f) => f.key === 'huge.txt');
    expect(huge?.urls).toEqual([]);
    expect(created.body.artifacts.find((a) => a.key === 'huge.txt')?.error?.code).toBe('too_large');
    const first = created.body.files[0]?.urls[0];
    await fetch(first?.url ?? '', { method: 'PUT', body: bytesOf(Buffer.alloc(first?.size ?? 0, 97)) });
    const done = await json<Upload>(`/uploads/${created.body.upload_id}/complete`, 'POST', {});
    const partial = done.body.artifacts.find((a) => a.key === 'partial.txt');
    expect(partial).toMatchObject({ status: 'failed', error: { code: 'incomplete' } });
    expect(partial?.error?.detail).toMatch(/Parts 2, 3 of 3 never arrived/);
  });
});

describe('artifacts', () => {
  it('keys may hold #, spaces and unicode (percent-encoded in paths)', async () => {
    const ds = await newDataset();
    const key = 'notes #1/été 2024 — résumé.md';
    await upload(ds.kb_id, [{ key, bytes: Buffer.from('# Summer\n\nWe sailed north along the coast.\n') }]);
    const ready = await settled(ds.kb_id, key);
    expect(ready).toMatchObject({ key, status: 'ready', mime_type: 'text/markdown' });
    expect((await h.api(`/knowledge-bases/${ds.kb_id}/artifacts/${encodeURIComponent(key)}`, { method: 'DELETE' })).status).toBe(204);
    expect((await json(`/knowledge-bases/${ds.kb_id}/artifacts/${encodeURIComponent(key)}`)).status).toBe(404);
  });

  it('a declared type that contradicts the content is corrected when harmless, and fails as mime_mismatch when not', async () => {
    const ds = await newDataset();
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await upload(ds.kb_id, [
      { key: 'data.txt', bytes: Buffer.from('{"harbour": "north", "depth": 12}'), mime_type: 'text/plain' },
      { key: 'report.pdf', bytes: png, mime_type: 'application/pdf' },
    ]);
    expect(await settled(ds.kb_id, 'data.txt')).toMatchObject({ status: 'ready', mime_type: 'application/json' });
    expect(await settled(ds.kb_id, 'report.pdf')).toMatchObject({ status: 'failed', error: { code: 'mime_mismatch' } });
  });

  it('refuses a photo or a type the admin did not allow in plain words, naming no config key', async () => {
    const ds = await newDataset();
    // An iPhone photo: HEIF container, declared by the browser under the other HEIF name.
    const heic = Buffer.concat([Buffer.from('0000001c6674797068656963', 'hex'), Buffer.from('mif1heicmiaf'), Buffer.alloc(64)]);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await upload(ds.kb_id, [
      { key: 'IMG_0042.HEIC', bytes: heic, mime_type: 'image/heif' },
      { key: 'chart.png', bytes: png },
      { key: 'tides.tsv', bytes: Buffer.from('harbour\tdepth\nnorth\t12\nsouth\t9\n') },
    ]);
    for (const key of ['IMG_0042.HEIC', 'chart.png']) {
      const photo = await settled(ds.kb_id, key);
      expect(photo).toMatchObject({ status: 'failed', error: { code: 'unsupported_media_type' } });
      expect(photo.error?.detail).toMatch(/^Images are not supported yet/);
    }
    const tsv = await settled(ds.kb_id, 'tides.tsv');
    expect(tsv).toMatchObject({ status: 'failed', mime_type: 'text/tab-separated-values', error: { code: 'unsupported_media_type' } });
    expect(tsv.error?.detail).toMatch(/not accepted here; ask an admin/);
    expect(tsv.error?.detail).not.toMatch(/allowed_types/);
  });

  it('a file that cannot be parsed fails alone; the others in its upload are ready', async () => {
    const ds = await newDataset();
    await upload(ds.kb_id, [
      { key: 'broken.pdf', bytes: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage without end') },
      { key: 'fine.md', bytes: Buffer.from('# Fine\n\nThis one parses.\n') },
    ]);
    expect((await settled(ds.kb_id, 'broken.pdf')).error?.code).toBe('parse_error');
    expect((await settled(ds.kb_id, 'fine.md')).status).toBe('ready');
  });

  it('page by cursor and status without skipping or repeating while files arrive', async () => {
    const ds = await newDataset();
    await upload(ds.kb_id, Array.from({ length: 5 }, (_, i) => ({ key: `f${i}.txt`, bytes: Buffer.from(`file ${i} about buoys`) })));
    const seen: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const page: { body: { data: Artifact[]; next_cursor: string | null } } = await json(`/knowledge-bases/${ds.kb_id}/artifacts?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.data.map((a) => a.key));
      await upload(ds.kb_id, [{ key: `late${round++}.txt`, bytes: Buffer.from('late arrival') }]);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 5)).toEqual(['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
    for (let i = 0; i < round; i++) await settled(ds.kb_id, `late${i}.txt`);
    const ready = await json<{ data: Artifact[] }>(`/knowledge-bases/${ds.kb_id}/artifacts?status=ready&limit=200`);
    expect(ready.body.data.every((a) => a.status === 'ready')).toBe(true);
  });

  it('the multipart/form-data route runs the same pipeline', async () => {
    const ds = await newDataset();
    const form = new FormData();
    form.append('file', new Blob(['Harbour master notes: the pier was rebuilt in 1998.'], { type: 'text/plain' }), 'pier.txt');
    form.append('file', new Blob(['name,depth\nnorth,12\nsouth,9\n'], { type: 'text/csv' }), 'depths.csv');
    const res = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: Artifact[] };
    expect(data.map((a) => a.key)).toEqual(['pier.txt', 'depths.csv']);
    expect(await settled(ds.kb_id, 'pier.txt')).toMatchObject({ status: 'ready' });
    expect(await settled(ds.kb_id, 'depths.csv')).toMatchObject({ status: 'ready', mime_type: 'text/csv' });
  });
});

describe('deleting a dataset', () => {
  it('takes its knowledge base, artifacts, chunks, stored files and the thread configurations that name it', async () => {
    const ds = await newDataset('Doomed');
    const keep = await newDataset('Kept');
    await upload(ds.kb_id, [{ key: 'unique.txt', bytes: Buffer.from(`only here ${Date.now()} zebra crossing`) }]);
    await settled(ds.kb_id, 'unique.txt');
    const thread = await json<{ id: string; dataset_ids: string[] }>('/threads', 'POST', { dataset_ids: [ds.id, keep.id] });
    expect(thread.body.dataset_ids).toEqual([ds.id, keep.id]);
    const blobsBefore = readdirSync(join(dir.dir, 'blobs'), { recursive: true }).length;

    const member = await json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: `m${Date.now()}@example.com`, name: 'M' });
    expect((await json(`/datasets/${ds.id}`, 'DELETE', undefined, member.body.api_key.key)).status).toBe(403);

    expect((await json(`/datasets/${ds.id}`, 'DELETE')).status).toBe(204);
    expect((await json(`/datasets/${ds.id}`)).status).toBe(404);
    expect((await json(`/knowledge-bases/${ds.kb_id}/artifacts`)).status).toBe(404);
    expect((await json<{ dataset_ids: string[] }>(`/threads/${thread.body.id}`)).body.dataset_ids).toEqual([keep.id]);
    const chunks = h.core.db.prepare('SELECT count(*) AS n FROM chunks WHERE kb_id = ?').get(ds.kb_id) as { n: number };
    expect(chunks.n).toBe(0);
    expect(readdirSync(join(dir.dir, 'blobs'), { recursive: true }).length).toBeLessThan(blobsBefore);
    expect(existsSync(join(dir.dir, 'upload-parts'))).toBe(true);
  });
});
