/**
 * Watched folders (issue 30) over real filesystem events in temporary folders: nothing here waits on
 * the clock; each test waits for the folder's state or its artifacts (`vi.waitFor`).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../../main/boot.js';
import type { Artifact } from '../../../shared/operations/datasets.js';
import type { Folder } from '../../../shared/operations/folders.js';
import { bootTestCore, tempDir } from '../../support/core.js';

const WAIT = { timeout: 20_000, interval: 25 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

type TestCore = Core & { remove: () => Promise<void> };

function folderDir(): string {
  const t = tempDir('parley-folder-');
  cleanups.push(t.remove);
  return t.dir;
}

async function setup(core: TestCore) {
  const owner = core.desktopCaller();
  const call = <T>(op: string, input: object) => core.service.invoke(op, input, owner) as Promise<T>;
  const ds = await call<{ id: string; kb_id: string }>('datasets.create', { name: 'Followed' });
  const artifacts = async () => (await call<{ data: Artifact[] }>('artifacts.list', { kb_id: ds.kb_id, limit: 200 })).data;
  const keys = async () => (await artifacts()).map((a) => a.key).sort();
  return { call, ds, artifacts, keys };
}

async function started() {
  const core = bootTestCore({ folderTiming: { stabilityMs: 100 } });
  cleanups.push(() => core.remove());
  const dir = folderDir();
  return { core, dir, ...(await setup(core)) };
}

const ready = (list: Artifact[], key: string) => list.find((a) => a.key === key && a.status === 'ready');

describe('following a folder', () => {
  it('scans recursively, skipping hidden files, outside symlinks, symlink loops and excluded files; keys are relative paths', async () => {
    const { dir, call, ds, artifacts, keys } = await started();
    const outside = folderDir();
    writeFileSync(join(outside, 'secret.txt'), 'outside words');
    mkdirSync(join(dir, 'notes', 'deep'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'a.txt'), 'alpha words');
    writeFileSync(join(dir, 'notes', 'deep', 'b.md'), '# Bravo\n\nbravo words');
    writeFileSync(join(dir, 'notes', 'skip.log'), 'excluded words');
    writeFileSync(join(dir, '.hidden.txt'), 'hidden words');
    writeFileSync(join(dir, '.git', 'config'), 'git words');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'leak.txt'));
    symlinkSync(dir, join(dir, 'notes', 'loop'));
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir, exclude: ['**/*.log'] });
    expect(folder).toMatchObject({ dataset_id: ds.id, exclude: ['**/*.log'] });
    expect(folder.id).toMatch(/^fld_/);
    await vi.waitFor(async () => {
      const f = await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id });
      expect(f.status).toBe('watching');
      expect(f.files).toMatchObject({ seen: 2, ready: 2, pending: 0, failed: 0 });
    }, WAIT);
    expect(await keys()).toEqual(['a.txt', 'notes/deep/b.md']);
    const b = (await artifacts()).find((a) => a.key === 'notes/deep/b.md');
    expect(b?.source).toEqual({ folder_id: folder.id, path: 'notes/deep/b.md' });
    // Nothing written into the folder.
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha words');
  });

  it('follows adds, changes, renames (without parsing again) and deletions live, and files written slowly', async () => {
    const { core, dir, call, ds, artifacts, keys } = await started();
    writeFileSync(join(dir, 'keep.txt'), 'keep words');
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir });
    await vi.waitFor(async () => expect(ready(await artifacts(), 'keep.txt')).toBeDefined(), WAIT);

    writeFileSync(join(dir, 'new.txt'), 'fresh words');
    await vi.waitFor(async () => expect(ready(await artifacts(), 'new.txt')).toBeDefined(), WAIT);

    const before = ready(await artifacts(), 'keep.txt') as Artifact;
    writeFileSync(join(dir, 'keep.txt'), 'keep words changed and longer');
    await vi.waitFor(async () => {
      const a = ready(await artifacts(), 'keep.txt');
      expect(a?.size).toBe('keep words changed and longer'.length);
    }, WAIT);
    expect(ready(await artifacts(), 'keep.txt')?.id).toBe(before.id);
    // The edited file's earlier bytes are not kept once nothing refers to them.
    const oldSha = createHash('sha256').update('keep words').digest('hex');
    expect(existsSync(join(core.dataDir, 'blobs', oldSha.slice(0, 2), oldSha))).toBe(false);

    const moved = ready(await artifacts(), 'new.txt') as Artifact;
    renameSync(join(dir, 'new.txt'), join(dir, 'renamed.txt'));
    await vi.waitFor(async () => expect(await keys()).toEqual(['keep.txt', 'renamed.txt']), WAIT);
    const after = (await artifacts()).find((a) => a.key === 'renamed.txt') as Artifact;
    // The same artifact moved: its id, its chunks and its ready state kept (no second parse).
    expect(after).toMatchObject({ id: moved.id, status: 'ready', chunk_count: moved.chunk_count, source: { folder_id: folder.id, path: 'renamed.txt' } });

    unlinkSync(join(dir, 'renamed.txt'));
    await vi.waitFor(async () => expect(await keys()).toEqual(['keep.txt']), WAIT);

    // Written in pieces: read once it holds still, with every piece.
    // Written in pieces, the listing read between pieces: no version of it is ever taken but the whole one.
    const slow = join(dir, 'slow.txt');
    const sizes = new Set<number>();
    const look = async () => {
      const a = (await artifacts()).find((x) => x.key === 'slow.txt');
      if (a) sizes.add(a.size);
    };
    writeFileSync(slow, 'first piece ');
    for (let i = 0; i < 40; i++) {
      appendFileSync(slow, `piece${i} `);
      await look();
    }
    appendFileSync(slow, 'last piece');
    const full = readFileSync(slow, 'utf8');
    await vi.waitFor(async () => {
      await look();
      expect(ready(await artifacts(), 'slow.txt')?.size).toBe(full.length);
    }, WAIT);
    expect([...sizes]).toEqual([full.length]);
  });

  it('replaces a changed file\'s chunks at once: a search finds the old version or the new one, never both nor neither', async () => {
    const { dir, call, ds, artifacts } = await started();
    const body = (word: string) => Array.from({ length: 3000 }, (_, i) => `Line ${i} about ${word} and other things.`).join('\n');
    writeFileSync(join(dir, 'big.txt'), body('aardvark'));
    await call<Folder>('folders.create', { id: ds.id, path: dir });
    await vi.waitFor(async () => expect(ready(await artifacts(), 'big.txt')).toBeDefined(), WAIT);
    const finds = async (word: string) => (await call<{ data: unknown[] }>('search.query', { query: word, dataset_ids: [ds.id], mode: 'keyword' })).data.length > 0;
    expect(await finds('aardvark')).toBe(true);
    writeFileSync(join(dir, 'big.txt'), body('zebra'));
    const seen: string[] = [];
    await vi.waitFor(async () => {
      const [old, neu] = await Promise.all([finds('aardvark'), finds('zebra')]);
      seen.push(old && neu ? 'both' : old ? 'old' : neu ? 'new' : 'neither');
      expect(neu).toBe(true);
    }, { timeout: 20_000, interval: 1 });
    expect(seen.filter((s) => s === 'both' || s === 'neither')).toEqual([]);
    expect(seen.length).toBeGreaterThan(1);
    expect(await finds('aardvark')).toBe(false);
  });

  it('takes a burst of 1,000 files', async () => {
    const { dir, call, ds } = await started();
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir });
    await vi.waitFor(async () => expect((await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id })).status).toBe('watching'), WAIT);
    mkdirSync(join(dir, 'burst'));
    for (let i = 0; i < 1000; i++) writeFileSync(join(dir, 'burst', `f${i}.txt`), `burst file number ${i}`);
    await vi.waitFor(async () => {
      const f = await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id });
      expect(f.files).toMatchObject({ seen: 1000, ready: 1000 });
    }, { timeout: 120_000, interval: 200 });
  }, 180_000);

  it('pauses and resumes; removing the folder stops following it and removes its artifacts, nothing on disk', async () => {
    const { dir, call, ds, artifacts, keys } = await started();
    writeFileSync(join(dir, 'one.txt'), 'one words');
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir });
    await vi.waitFor(async () => expect(ready(await artifacts(), 'one.txt')).toBeDefined(), WAIT);
    const paused = await call<Folder>('folders.update', { id: ds.id, folder_id: folder.id, status: 'paused' });
    expect(paused.status).toBe('paused');
    writeFileSync(join(dir, 'two.txt'), 'two words');
    const resumed = await call<Folder>('folders.update', { id: ds.id, folder_id: folder.id, status: 'watching' });
    expect(['scanning', 'watching']).toContain(resumed.status);
    await vi.waitFor(async () => expect(ready(await artifacts(), 'two.txt')).toBeDefined(), WAIT);
    await call('folders.delete', { id: ds.id, folder_id: folder.id });
    expect(await keys()).toEqual([]);
    expect(readFileSync(join(dir, 'two.txt'), 'utf8')).toBe('two words');
    expect((await call<{ data: Folder[] }>('folders.list', { id: ds.id })).data).toEqual([]);
  });

  it('says so when the folder is removed while followed, and nothing crashes', async () => {
    const { dir, call, ds, artifacts } = await started();
    const sub = join(dir, 'followed');
    mkdirSync(sub);
    writeFileSync(join(sub, 'x.txt'), 'x words');
    const folder = await call<Folder>('folders.create', { id: ds.id, path: sub });
    await vi.waitFor(async () => expect(ready(await artifacts(), 'x.txt')).toBeDefined(), WAIT);
    rmSync(sub, { recursive: true });
    await vi.waitFor(async () => {
      const f = await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id });
      expect(f.status).toBe('error');
      expect(f.error?.code).toBe('folder_missing');
    }, WAIT);
    // The service still answers.
    expect((await call<{ data: Folder[] }>('folders.list', { id: ds.id })).data).toHaveLength(1);
  });

  it('refuses a relative, missing or non-directory path with 422 naming path, and paths outside allowed_roots', async () => {
    const { dir, call, ds } = await started();
    writeFileSync(join(dir, 'file.txt'), 'x');
    for (const path of ['relative/dir', join(dir, 'missing'), join(dir, 'file.txt')]) {
      await expect(call('folders.create', { id: ds.id, path })).rejects.toMatchObject({ code: 'unprocessable', errors: [expect.objectContaining({ path: 'path' })] });
    }
  });
});

describe('where the OS cannot watch', () => {
  it('follows by a periodic scan, says so, and lists files over the size limit as skipped with the reason', async () => {
    const core = bootTestCore({ folderTiming: { stabilityMs: 100, pollIntervalMs: 20, forcePolling: true } });
    cleanups.push(() => core.remove());
    const dir = folderDir();
    const { call, ds, artifacts } = await setup(core);
    const state = await call<{ version: number }>('admin.config.get', {});
    await call('admin.config.patch', { values: { 'uploads.max_file_mb': 0.01 }, base_version: state.version });
    writeFileSync(join(dir, 'small.txt'), 'small words');
    writeFileSync(join(dir, 'huge.txt'), 'x'.repeat(20_000));
    const folder = await call<Folder>('folders.create', { id: ds.id, path: dir });
    await vi.waitFor(async () => {
      const f = await call<Folder>('folders.get', { id: ds.id, folder_id: folder.id });
      expect(f).toMatchObject({ status: 'watching', watch: 'polling', error: { code: 'polling' }, files: { seen: 2, ready: 1, skipped: 1 } });
      expect(f.skipped).toEqual([{ path: 'huge.txt', reason: expect.stringContaining('max_file_mb') }]);
    }, WAIT);
    writeFileSync(join(dir, 'later.txt'), 'later words');
    await vi.waitFor(async () => expect(ready(await artifacts(), 'later.txt')).toBeDefined(), WAIT);
    unlinkSync(join(dir, 'small.txt'));
    await vi.waitFor(async () => expect((await artifacts()).map((a) => a.key)).toEqual(['later.txt']), WAIT);
  });
});

describe('after a stop', () => {
  it('reconciles changes made while stopped without parsing unchanged files again', async () => {
    const data = tempDir('parley-data-');
    cleanups.push(data.remove);
    const dir = folderDir();
    writeFileSync(join(dir, 'same.txt'), 'same words');
    writeFileSync(join(dir, 'edit.txt'), 'edit words');
    writeFileSync(join(dir, 'gone.txt'), 'gone words');
    let core = bootTestCore({ dataDir: data.dir, folderTiming: { stabilityMs: 100 } });
    let s = await setup(core);
    const folder = await s.call<Folder>('folders.create', { id: s.ds.id, path: dir });
    await vi.waitFor(async () => expect((await s.artifacts()).filter((a) => a.status === 'ready')).toHaveLength(3), WAIT);
    const same = ready(await s.artifacts(), 'same.txt') as Artifact;
    await core.close();

    writeFileSync(join(dir, 'edit.txt'), 'edited while stopped');
    unlinkSync(join(dir, 'gone.txt'));
    writeFileSync(join(dir, 'added.txt'), 'added while stopped');

    core = bootTestCore({ dataDir: data.dir, folderTiming: { stabilityMs: 100 } });
    cleanups.push(() => core.close());
    const owner = core.desktopCaller();
    const call = <T>(op: string, input: object) => core.service.invoke(op, input, owner) as Promise<T>;
    s = { ...s, call, artifacts: async () => (await call<{ data: Artifact[] }>('artifacts.list', { kb_id: s.ds.kb_id, limit: 200 })).data };
    await vi.waitFor(async () => {
      const list = await s.artifacts();
      expect(list.map((a) => a.key).sort()).toEqual(['added.txt', 'edit.txt', 'same.txt']);
      expect(ready(list, 'edit.txt')?.size).toBe('edited while stopped'.length);
      expect(ready(list, 'added.txt')).toBeDefined();
    }, WAIT);
    // Unchanged: not touched (not parsed again).
    expect(ready(await s.artifacts(), 'same.txt')?.updated_at).toBe(same.updated_at);
    expect((await call<Folder>('folders.get', { id: s.ds.id, folder_id: folder.id })).status).toBe('watching');
  });

  it('starts with a folder whose stored globs are damaged: that one says so and is not scanned, the others are followed', async () => {
    const data = tempDir('parley-data-');
    cleanups.push(data.remove);
    const healthyDir = folderDir();
    const damagedDir = folderDir();
    writeFileSync(join(damagedDir, 'kept.txt'), 'kept words');
    let core = bootTestCore({ dataDir: data.dir, folderTiming: { stabilityMs: 100 } });
    const s = await setup(core);
    const healthy = await s.call<Folder>('folders.create', { id: s.ds.id, path: healthyDir });
    const damaged = await s.call<Folder>('folders.create', { id: s.ds.id, path: damagedDir });
    await vi.waitFor(async () => expect(ready(await s.artifacts(), 'kept.txt')).toBeDefined(), WAIT);
    await core.close();
    // Hand-edited or damaged on disk: the globs no longer parse. A scan under no readable globs could
    // remove what the folder brought, so the folder must not be followed at all.
    const Database = (await import('better-sqlite3')).default;
    const raw = new Database(join(data.dir, 'parley.db'));
    raw.prepare("UPDATE folders SET include = '[\"**/*' WHERE id = ?").run(damaged.id);
    raw.close();
    unlinkSync(join(damagedDir, 'kept.txt'));

    core = bootTestCore({ dataDir: data.dir, folderTiming: { stabilityMs: 100 } });
    cleanups.push(() => core.close());
    const owner = core.desktopCaller();
    const call = <T>(op: string, input: object) => core.service.invoke(op, input, owner) as Promise<T>;
    const artifacts = async () => (await call<{ data: Artifact[] }>('artifacts.list', { kb_id: s.ds.kb_id, limit: 200 })).data;
    writeFileSync(join(healthyDir, 'new.txt'), 'new words');
    await vi.waitFor(async () => expect(ready(await artifacts(), 'new.txt')).toBeDefined(), WAIT);
    expect(ready(await artifacts(), 'kept.txt')).toBeDefined();
    expect(core.db.prepare('SELECT status, error_code FROM folders WHERE id = ?').get(damaged.id)).toEqual({ status: 'error', error_code: 'corrupt_record' });
    expect((await call<Folder>('folders.get', { id: s.ds.id, folder_id: healthy.id })).status).toBe('watching');
  });
});
