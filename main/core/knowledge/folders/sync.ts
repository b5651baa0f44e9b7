import { createReadStream, existsSync } from 'node:fs';
import { releaseBlob } from '../../platform/storage/release-blob.js';
import { lstat, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Config } from '../../../../shared/config.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { FolderRecord } from '../../../db/repositories/folders.js';
import { TooManyBytes } from '../../platform/storage/blob-store.js';
import type { BlobStorage } from '../../platform/storage/blob-storage.js';
import type { IngestPort } from '../../platform/ports/knowledge.js';
import type { Logger } from '../../platform/logger.js';
import { newId } from '../../platform/ids.js';
import { globFilter, isHidden } from './paths.js';
import { symlinkToFileInside } from './walk.js';

const MB = 1024 * 1024;

export interface SyncDeps {
  repos: Repositories;
  blobs: BlobStorage;
  ingest: IngestPort;
  config: () => Config;
  log: Logger;
  now: () => Date;
}

/** What syncing one file did, for the scan's counts. */
export type SyncOutcome = { kind: 'tracked' } | { kind: 'skipped'; reason: string } | { kind: 'absent' };

/** The folder's globs as one test over keys. */
export function folderFilter(folder: FolderRecord): (key: string) => boolean {
  return globFilter(folder.include, folder.exclude);
}

/**
 * Brings one file of a folder in line with the disk: nothing when its size and mtime are what was
 * last read; otherwise its bytes are stored (content-addressed, as uploads are) and compared by
 * hash — the same hash only records the new mtime; a hash another artifact of this folder has whose
 * file is gone is a rename (the artifact moves, its chunks kept); anything else is parsed through
 * the ingest queue. Parley only reads the folder.
 */
export async function syncFile(deps: SyncDeps, folder: FolderRecord, root: string, key: string, admits: (key: string) => boolean): Promise<SyncOutcome> {
  const { repos } = deps;
  const abs = join(root, ...key.split('/'));
  const existing = repos.folders.artifactAt(folder.id, key);
  if (isHidden(key) || !admits(key)) {
    if (existing) await removeArtifact(deps, existing.id, existing.sha256);
    return { kind: 'absent' };
  }
  let info;
  try {
    const link = await lstat(abs);
    if (link.isSymbolicLink() && !(await symlinkToFileInside(root, abs))) throw new Error('leaves the folder');
    info = link.isSymbolicLink() ? await stat(abs) : link;
  } catch {
    if (existing) await removeArtifact(deps, existing.id, existing.sha256);
    return { kind: 'absent' };
  }
  if (!info.isFile()) return { kind: 'absent' };
  const { uploads } = deps.config();
  if (info.size > uploads.max_file_mb * MB) {
    if (existing) await removeArtifact(deps, existing.id, existing.sha256);
    return { kind: 'skipped', reason: `larger than the limit of ${uploads.max_file_mb} MB ([uploads] max_file_mb)` };
  }
  const mtimeMs = Math.trunc(info.mtimeMs);
  if (existing && existing.size === info.size && existing.source_mtime_ms === mtimeMs) return { kind: 'tracked' };
  let stored: { sha256: string; size: number };
  try {
    stored = await deps.blobs.put(createReadStream(abs), uploads.max_file_mb * MB);
  } catch (error) {
    if (error instanceof TooManyBytes) return { kind: 'skipped', reason: `larger than the limit of ${uploads.max_file_mb} MB ([uploads] max_file_mb)` };
    return { kind: 'absent' }; // removed or unreadable while read: the event that follows says which
  }
  const now = deps.now().toISOString();
  const dataset = repos.datasets.get(folder.dataset_id);
  if (!dataset || !repos.folders.get(folder.id)) {
    await releaseBlob(deps, stored.sha256);
    return { kind: 'absent' };
  }
  let replaced: string | null = null;
  const enqueue = repos.transaction((): string | null => {
    const current = repos.folders.artifactAt(folder.id, key);
    if (current) {
      if (current.sha256 === stored.sha256 && current.size === stored.size) {
        repos.folders.setMtime(current.id, mtimeMs);
        return null;
      }
      replaced = current.sha256;
      repos.folders.setContent(current.id, { sha256: stored.sha256, size: stored.size, mtime_ms: mtimeMs, now });
      return current.id;
    }
    // A rename: an artifact of this folder with these bytes whose file is no longer where it was.
    const moved = repos.folders.artifactsWithSha(folder.id, stored.sha256).find((a) => a.source_path !== key && a.status !== 'failed' && !existsSyncSafe(join(root, ...a.source_path.split('/'))));
    if (moved && !repos.artifacts.getByKey(dataset.kb_id, key)) {
      repos.folders.move(moved.id, { key, filename: basename(abs), source_path: key, mtime_ms: mtimeMs, now });
      return null;
    }
    if (repos.artifacts.getByKey(dataset.kb_id, key)) throw new KeyTaken(key);
    const id = newId('art');
    repos.folders.insertArtifact({ id, kb_id: dataset.kb_id, key, filename: basename(abs), size: stored.size, user_id: folder.user_id, now, folder_id: folder.id, source_path: key, mtime_ms: mtimeMs, sha256: stored.sha256 });
    return id;
  });
  if (enqueue) deps.ingest.enqueue(enqueue);
  // The edited file's earlier bytes are no longer anyone's (unless another artifact has them too).
  if (replaced) await releaseBlob(deps, replaced);
  return { kind: 'tracked' };
}

/** A file whose key an upload of the dataset already has: the upload keeps it. */
export class KeyTaken extends Error {
  constructor(readonly key: string) {
    super(`an artifact with the key ${JSON.stringify(key)} already exists in the dataset`);
  }
}

function existsSyncSafe(path: string): boolean {
  try {
    return existsSync(path);
  } catch {
    return false;
  }
}

/** Removes a folder's artifact (its chunks go by cascade) and its bytes when nothing else uses them. */
export async function removeArtifact(deps: Pick<SyncDeps, 'repos' | 'blobs'>, id: string, sha256: string | null): Promise<void> {
  deps.repos.artifacts.delete(id);
  if (sha256) await releaseBlob(deps, sha256);
}

