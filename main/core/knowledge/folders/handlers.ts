import { ServiceError } from '../../../../shared/errors.js';
import type { FolderRecord } from '../../../db/repositories/folders.js';
import { callerIs } from '../../platform/auth/roles.js';
import { mayWrite, orgDataset, type DatasetCtx } from '../datasets/access.js';
import { type AuthedSlice, type ContextSlice, isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';
import { checkFolderPath } from './paths.js';
import { removeArtifact } from './sync.js';
import { folderView } from './views.js';
import type { FolderWatchersPort } from '../../platform/ports/knowledge.js';
import type { HandlersFor, InputOf } from '../../platform/operation-handlers.js';

/** What the folder operations read: the stores, the folder settings, the clock and the watchers. */
type FolderCtx = AuthedSlice<'repos' | 'config' | 'now', 'folders'>;

function watchers(ctx: ContextSlice<never, 'folders'>): FolderWatchersPort {
  const w = ctx.runtime.folders;
  if (!w) throw new ServiceError('unavailable', 'Watched folders are not available in this process.');
  return w;
}

/** A folder as the API shows it, with the interval of the polling fallback. */
const view = (ctx: ContextSlice<'repos', 'folders'>, row: FolderRecord) => folderView(ctx.repos, row, ctx.runtime.folders?.pollSeconds ?? null);

function folderOf(ctx: DatasetCtx, datasetId: string, folderId: string): FolderRecord {
  orgDataset(ctx, datasetId);
  const row = ctx.repos.folders.get(folderId);
  if (!row || row.dataset_id !== datasetId) throw new ServiceError('not_found', `No folder ${folderId} in dataset ${datasetId}.`);
  return row;
}

export async function createFolder(ctx: FolderCtx, input: InputOf<'folders.create'>) {
  const dataset = orgDataset(ctx, input.id);
  mayWrite(ctx, dataset);
  const following = watchers(ctx);
  const real = await checkFolderPath(input.path, ctx.config().folders.allowed_roots, following.dataDir);
  const taken = ctx.repos.folders.ofDataset(dataset.id).find((f) => f.path === real);
  if (taken) throw new ServiceError('conflict', `The dataset already follows ${real} (${taken.id}).`, [{ path: 'path', message: 'already followed' }]);
  const id = newId('fld');
  ctx.repos.folders.insert({ id, dataset_id: dataset.id, user_id: ctx.caller.user.id, path: real, include: input.include ?? [], exclude: input.exclude ?? [], now: isoNow(ctx) });
  following.start(id);
  return view(ctx, ctx.repos.folders.get(id) as FolderRecord);
}

export function listFolders(ctx: FolderCtx, input: InputOf<'folders.list'>) {
  orgDataset(ctx, input.id);
  const data = ctx.repos.folders.ofDataset(input.id).map((row) => view(ctx, row));
  // Paths on the server's disk: an admin needs them to follow a folder, a member learns nothing from them.
  return { data, allowed_roots: callerIs(ctx, 'admin') ? [...ctx.config().folders.allowed_roots] : null };
}

export function getFolder(ctx: FolderCtx, input: InputOf<'folders.get'>) {
  return view(ctx, folderOf(ctx, input.id, input.folder_id));
}

export async function updateFolder(ctx: FolderCtx, input: InputOf<'folders.update'>) {
  const folder = folderOf(ctx, input.id, input.folder_id);
  mayWrite(ctx, orgDataset(ctx, input.id));
  const following = watchers(ctx);
  const globsChanged = input.include !== undefined || input.exclude !== undefined;
  if (globsChanged) ctx.repos.folders.setGlobs(folder.id, input.include ?? folder.include, input.exclude ?? folder.exclude);
  const next = input.status ?? (folder.status === 'paused' ? 'paused' : 'watching');
  if (next === 'paused') {
    await following.stop(folder.id);
    ctx.repos.folders.setStatus(folder.id, 'paused');
  } else if (input.status === 'watching' || globsChanged || folder.status === 'error') {
    // Resuming (or new globs) is a reconcile: unchanged files cost a stat, the others are read again.
    following.start(folder.id);
  }
  return view(ctx, ctx.repos.folders.get(folder.id) as FolderRecord);
}

/** Stops following and removes the artifacts the folder brought; nothing on disk is touched. */
export async function deleteFolder(ctx: AuthedSlice<'repos', 'folders' | 'blobs'>, input: InputOf<'folders.delete'>): Promise<null> {
  const folder = folderOf(ctx, input.id, input.folder_id);
  mayWrite(ctx, orgDataset(ctx, input.id));
  await watchers(ctx).stop(folder.id);
  ctx.repos.folders.delete(folder.id);
  const deps = { repos: ctx.repos, blobs: ctx.runtime.blobs };
  for (;;) {
    const page = ctx.repos.folders.artifactsAfter(folder.id, 0, 500);
    if (page.length === 0) break;
    for (const a of page) await removeArtifact(deps, a.id, a.sha256);
  }
  return null;
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const folderHandlers: HandlersFor<'folders'> = {
  'folders.create': createFolder,
  'folders.list': listFolders,
  'folders.get': getFolder,
  'folders.update': updateFolder,
  'folders.delete': deleteFolder,
};
