/**
 * Issue 10, item 8: a full disk is a clear 507 problem and leaves nothing half-written; expired
 * and abandoned uploads are cleaned up with their parts, also after a restart. The full disk is
 * real: uploaded bytes go to /dev/full, where the kernel answers every write with ENOSPC.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { startTestHttp, tempDir, TEST_ADMIN_KEY } from '../support/core.js';

type Problem = { code: string; status: number; detail: string };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function served(options: Parameters<typeof startTestHttp>[0]) {
  const dir = tempDir();
  writeFileSync(join(dir.dir, 'parley.toml'), CONFIG_TEMPLATE.replace('part_size_mb = 8', 'part_size_mb = 0.25'));
  const h = await startTestHttp({ dataDir: dir.dir, ...options });
  cleanups.push(() => dir.remove(), () => h.close());
  const created = await h.api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'Disk' }) });
  const { kb_id } = (await created.json()) as { kb_id: string };
  const artifacts = async () => ((await (await h.api(`/knowledge-bases/${kb_id}/artifacts`)).json()) as { data: { key: string; status: string }[] }).data;
  return { h, dir: dir.dir, kb_id, artifacts };
}

describe('a full disk', () => {
  it('a form upload → 507 insufficient_storage, and no artifact is left holding the key', async () => {
    const { h, kb_id, artifacts } = await served({ blobWriteDevice: '/dev/full' });
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(300_000)]), 'notes.txt');
    const res = await h.api(`/knowledge-bases/${kb_id}/artifacts`, { method: 'POST', body: form });
    expect(res.status).toBe(507);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as Problem;
    expect(problem).toMatchObject({ code: 'insufficient_storage', status: 507 });
    expect(problem.detail).toMatch(/disk .* is full/);
    expect(await artifacts()).toEqual([]);
  });

  it('a signed part PUT → 507, and the upload can go on once there is room', async () => {
    const { h, kb_id, artifacts } = await served({ blobWriteDevice: '/dev/full' });
    const created = await h.api('/uploads', { method: 'POST', body: JSON.stringify({ kb_id, files: [{ key: 'a.txt', filename: 'a.txt', size: 5 }] }) });
    const upload = (await created.json()) as { files: { urls: { url: string }[] }[] };
    const url = upload.files[0]?.urls[0]?.url ?? '';
    const res = await fetch(url, { method: 'PUT', body: 'hello' });
    expect(res.status).toBe(507);
    expect(((await res.json()) as Problem).code).toBe('insufficient_storage');
    // Nothing arrived, nothing is claimed: the file is still waiting for its part.
    expect((await artifacts()).map((a) => a.status)).toEqual(['pending']);
  });
});

describe('unfinished uploads are cleaned up', () => {
  it('after a restart: a form upload cut off mid-way, temp files and orphan parts are gone, the key is free', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const first = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY, watchConfigFile: false }));
    await first.cleanedUp;
    // What a crash (or a full disk, before this fix) left: a row `uploading` for ever, a temp file, parts of no one.
    const { kb_id } = (await first.service.invoke('datasets.create', { name: 'Crash' }, first.desktopCaller())) as { kb_id: string };
    first.repos.artifacts.insert({ id: 'art_Cut0ff', kb_id, key: 'cut.txt', filename: 'cut.txt', declared_mime_type: null, size: 0, part_size: 1, upload_id: null, user_id: null, status: 'uploading', now: new Date().toISOString() });
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'half-written'), 'x');
    mkdirSync(join(dir, 'upload-parts', 'art_Orphan'), { recursive: true });
    writeFileSync(join(dir, 'upload-parts', 'art_Orphan', '1'), 'x');
    await first.close();

    const second = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', watchConfigFile: false }));
    cleanups.push(() => second.close());
    await second.cleanedUp;
    expect(second.repos.artifacts.get('art_Cut0ff')).toBeUndefined();
    expect(second.repos.artifacts.getByKey(kb_id, 'cut.txt')).toBeUndefined();
    expect(existsSync(join(dir, 'tmp', 'half-written'))).toBe(false);
    expect(existsSync(join(dir, 'upload-parts', 'art_Orphan'))).toBe(false);
  });

  it('periodically: an expired upload is closed and its unfinished files deleted with their parts', async () => {
    let clock = Date.now();
    const { h, kb_id, dir, artifacts } = await served({ now: () => new Date(clock), uploadSweepIntervalMs: 25 });
    const created = await h.api('/uploads', { method: 'POST', body: JSON.stringify({ kb_id, files: [{ key: 'big.txt', filename: 'big.txt', size: 300_000 }] }) });
    const upload = (await created.json()) as { upload_id: string; files: { artifact_id: string; urls: { url: string; size: number }[] }[] };
    const file = upload.files[0];
    const first = file?.urls[0];
    expect((await fetch(first?.url ?? '', { method: 'PUT', body: Buffer.alloc(first?.size ?? 0, 'a') })).status).toBe(200);
    const parts = join(dir, 'upload-parts', file?.artifact_id ?? '');
    expect(existsSync(parts)).toBe(true);
    // The signed URLs expire (url_ttl_seconds, 3600 by default) and the client never completes.
    clock += 3601 * 1000;
    // The sweep deletes the rows, then the parts on disk: both are waited for (a loaded machine
    // can be read between the two).
    await vi.waitFor(
      async () => {
        expect(await artifacts()).toEqual([]);
        expect(existsSync(parts)).toBe(false);
      },
      { timeout: 30_000 },
    );
    const view = (await (await h.api(`/uploads/${upload.upload_id}`)).json()) as { status: string };
    expect(view.status).toBe('expired');
  });
});
