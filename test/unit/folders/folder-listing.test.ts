/**
 * Watched folders seen from the rest of the service (issue 30): the file list filtered by folder or
 * by source, a deleted dataset's watchers closed at once, and what the folder list tells an admin
 * (the allowed roots) and every reader (how often a polled folder is checked). Real folders; nothing
 * waits on the clock.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BootOptions } from '../../../main/boot.js';
import type { Artifact } from '../../../shared/operations/datasets.js';
import type { Folder } from '../../../shared/operations/folders.js';
import { bootTestCore, tempDir } from '../../support/core.js';

const WAIT = { timeout: 20_000, interval: 25 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function folderDir(): string {
  const t = tempDir('parley-folder-');
  cleanups.push(t.remove);
  return t.dir;
}

async function started(options: Partial<BootOptions> = {}) {
  const core = bootTestCore({ folderTiming: { stabilityMs: 100 }, ...options });
  cleanups.push(() => core.remove());
  const owner = core.desktopCaller();
  const call = <T>(op: string, input: object) => core.service.invoke(op, input, owner) as Promise<T>;
  const ds = await call<{ id: string; kb_id: string }>('datasets.create', { name: 'Followed' });
  const keys = async (filter: object) => (await call<{ data: Artifact[] }>('artifacts.list', { kb_id: ds.kb_id, limit: 200, ...filter })).data.map((a) => a.key).sort();
  const watching = (folder: Folder) =>
    vi.waitFor(async () => {
      const f = await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id });
      expect(f).toMatchObject({ status: 'watching', files: { pending: 0 } });
    }, WAIT);
  return { core, call, ds, keys, watching };
}

describe('the file list by folder and by source', () => {
  it('lists one folder’s files (folder_id), uploads only (source=upload) or folders’ files only, paged', async () => {
    const { call, ds, keys, watching } = await started();
    const [a, b] = [folderDir(), folderDir()];
    writeFileSync(join(a, 'a1.txt'), 'alpha one');
    writeFileSync(join(a, 'a2.txt'), 'alpha two');
    writeFileSync(join(b, 'b1.txt'), 'bravo one');
    const fa = await call<Folder>('folders.create', { id: ds.id, path: a });
    const fb = await call<Folder>('folders.create', { id: ds.id, path: b });
    await watching(fa);
    await watching(fb);
    await call('uploads.create', { kb_id: ds.kb_id, files: [{ key: 'uploaded.txt', filename: 'uploaded.txt', size: 5 }] });

    expect(await keys({})).toEqual(['a1.txt', 'a2.txt', 'b1.txt', 'uploaded.txt']);
    expect(await keys({ folder_id: fa.id })).toEqual(['a1.txt', 'a2.txt']);
    expect(await keys({ folder_id: fb.id, status: 'ready' })).toEqual(['b1.txt']);
    expect(await keys({ source: 'upload' })).toEqual(['uploaded.txt']);
    expect(await keys({ source: 'folder' })).toEqual(['a1.txt', 'a2.txt', 'b1.txt']);
    expect(await keys({ folder_id: 'fld_NotFollowed' })).toEqual([]);

    // Paged: the cursor keeps the filter's rows, newest first as the dataset page reads them.
    const first = await call<{ data: Artifact[]; next_cursor: string | null }>('artifacts.list', { kb_id: ds.kb_id, folder_id: fa.id, limit: 1, order: 'newest' });
    expect(first.next_cursor).not.toBeNull();
    const second = await call<{ data: Artifact[]; next_cursor: string | null }>('artifacts.list', { kb_id: ds.kb_id, folder_id: fa.id, limit: 1, order: 'newest', cursor: first.next_cursor });
    expect([...first.data, ...second.data].map((x) => x.key).sort()).toEqual(['a1.txt', 'a2.txt']);
    expect(second.next_cursor).toBeNull();

    await expect(call('artifacts.list', { kb_id: ds.kb_id, folder_id: fa.id, source: 'upload' })).rejects.toMatchObject({
      code: 'invalid_argument',
      errors: [expect.objectContaining({ path: 'source' })],
    });
    await expect(call('artifacts.list', { kb_id: ds.kb_id, source: 'disk' })).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('deleting a dataset', () => {
  it('closes its folders’ watchers at once, and leaves the folders on disk', async () => {
    const { core, call, ds, watching } = await started();
    const dir = folderDir();
    writeFileSync(join(dir, 'x.txt'), 'x words');
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir });
    await watching(folder);
    expect(core.runtime.folders?.following(folder.id)).toBe(true);
    await call('datasets.delete', { id: ds.id });
    expect(core.runtime.folders?.following(folder.id)).toBe(false);
    expect(core.repos.folders.get(folder.id)).toBeUndefined();
    expect(readFileSync(join(dir, 'x.txt'), 'utf8')).toBe('x words');
  });
});

describe('what the folder list says', () => {
  it('gives an admin the allowed roots, as the configuration has them', async () => {
    const { call, ds } = await started();
    expect(await call('folders.list', { id: ds.id })).toEqual({ data: [], allowed_roots: [] });
    const root = folderDir();
    const state = await call<{ version: number }>('admin.config.get', {});
    await call('admin.config.patch', { values: { 'folders.allowed_roots': [root] }, base_version: state.version });
    expect(await call('folders.list', { id: ds.id })).toEqual({ data: [], allowed_roots: [root] });
  });

  it('says how often a polled folder is checked, and nothing of the kind for one followed by events', async () => {
    const polled = await started({ folderTiming: { stabilityMs: 100, pollIntervalMs: 30_000, forcePolling: true } });
    const dir = folderDir();
    writeFileSync(join(dir, 'p.txt'), 'polled words');
    const folder = await polled.call<Folder>('folders.create', { id: polled.ds.id, path: dir });
    await polled.watching(folder);
    const listed = await polled.call<{ data: Folder[] }>('folders.list', { id: polled.ds.id });
    expect(listed.data[0]).toMatchObject({ watch: 'polling', poll_seconds: 30 });

    const live = await started();
    const other = folderDir();
    const followed = await live.call<Folder>('folders.create', { id: live.ds.id, path: other });
    await live.watching(followed);
    expect(await live.call<Folder>('folders.get', { id: live.ds.id, folder_id: followed.id })).toMatchObject({ watch: 'events', poll_seconds: null });
  });
});
