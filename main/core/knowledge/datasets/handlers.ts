import { ServiceError } from '../../../../shared/errors.js';
import { releaseBlob } from '../../platform/storage/release-blob.js';
import { dropDataset } from './drop.js';
import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { artifactView, datasetView, embeds } from './views.js';
import { artifactByKey, canWrite, mayWrite, orgDataset, orgKb, type DatasetCtx } from './access.js';
import type { Handlers, InputOf } from '../../platform/operation-handlers.js';
import { artifactLink } from './download-link.js';
import { artifactContent } from './content.js';
import { insertDataset } from './thread-files.js';

const view = (ctx: AuthedSlice, row: DatasetRecord) => datasetView(row, canWrite(ctx, row));

export function createDataset(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'datasets.create'>) {
  const id = insertDataset(ctx, { name: input.name, description: input.description ?? null });
  return view(ctx, orgDataset(ctx, id));
}

export function listDatasets(ctx: DatasetCtx, input: InputOf<'datasets.list'>) {
  const threadsOf = input.include === 'threads' ? ctx.caller.user.id : null;
  const page = ctx.repos.datasets.page(ctx.caller.user.organization_id, input.limit, input.cursor, threadsOf);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  return { data: page.rows.map((row) => view(ctx, row)), next_cursor: page.next_cursor };
}

export function getDataset(ctx: DatasetCtx, input: InputOf<'datasets.get'>) {
  return view(ctx, orgDataset(ctx, input.id));
}

export function updateDataset(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'datasets.update'>) {
  mayWrite(ctx, orgDataset(ctx, input.id));
  ctx.repos.datasets.update(input.id, input, isoNow(ctx));
  return view(ctx, orgDataset(ctx, input.id));
}

export async function deleteDataset(ctx: AuthedSlice<'repos', 'folders' | 'blobs'>, input: InputOf<'datasets.delete'>): Promise<null> {
  const dataset = orgDataset(ctx, input.id);
  mayWrite(ctx, dataset);
  await dropDataset(ctx, dataset);
  return null;
}

export function listArtifacts(ctx: AuthedSlice<'repos', 'embedding'>, input: InputOf<'artifacts.list'>) {
  orgKb(ctx, input.kb_id);
  if (input.folder_id !== undefined && input.source === 'upload') {
    throw new ServiceError('invalid_argument', 'A followed folder’s files are not uploads: give `folder_id` or `source=upload`, not both.', [{ path: 'source', message: 'contradicts folder_id' }]);
  }
  const page = ctx.repos.artifacts.page(input.kb_id, input.limit, input.cursor, input.status, input.order, { folder_id: input.folder_id, source: input.source });
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  return { data: page.rows.map((row) => artifactView(row, embeds(ctx))), next_cursor: page.next_cursor };
}

export function getArtifact(ctx: AuthedSlice<'repos', 'embedding'>, input: InputOf<'artifacts.get'>) {
  return artifactView(artifactByKey(ctx, input.kb_id, input.key), embeds(ctx));
}

export async function deleteArtifact(ctx: AuthedSlice<'repos', 'blobs'>, input: InputOf<'artifacts.delete'>): Promise<null> {
  const artifact = artifactByKey(ctx, input.kb_id, input.key);
  mayWrite(ctx, orgKb(ctx, input.kb_id));
  ctx.repos.artifacts.delete(artifact.id);
  await ctx.runtime.blobs.dropParts(artifact.id);
  if (artifact.sha256) await releaseBlob({ repos: ctx.repos, blobs: ctx.runtime.blobs }, artifact.sha256);
  return null;
}

export function retryArtifact(ctx: AuthedSlice<'repos' | 'now', 'ingest' | 'embedding'>, input: InputOf<'artifacts.retry'>) {
  const artifact = artifactByKey(ctx, input.kb_id, input.key);
  mayWrite(ctx, orgKb(ctx, input.kb_id));
  if (artifact.status !== 'failed') throw new ServiceError('conflict', `Only a failed artifact can be retried; this one is ${artifact.status}.`);
  if (!artifact.sha256) throw new ServiceError('conflict', 'This file never finished uploading; upload it again.');
  ctx.repos.artifacts.setStatus(artifact.id, 'processing', isoNow(ctx));
  ctx.runtime.ingest.enqueue(artifact.id);
  return artifactView(artifactByKey(ctx, input.kb_id, input.key), embeds(ctx));
}

/**
 * Stops a file's processing: the queue stops it where it stands (no chunk is written after this),
 * the chunks written so far go, and the file ends `failed` with the code `cancelled`, to be retried.
 */
export function cancelArtifact(ctx: AuthedSlice<'repos' | 'now', 'ingest' | 'embedding'>, input: InputOf<'artifacts.cancel'>) {
  const artifact = artifactByKey(ctx, input.kb_id, input.key);
  mayWrite(ctx, orgKb(ctx, input.kb_id));
  if (artifact.status !== 'processing') throw new ServiceError('conflict', `Only a file being processed can be cancelled; this one is ${artifact.status}.`);
  ctx.runtime.ingest.cancel(artifact.id);
  ctx.repos.transaction(() => {
    ctx.repos.chunks.replaceForArtifact(artifact.id, artifact.kb_id, []);
    ctx.repos.artifacts.setStatus(artifact.id, 'failed', isoNow(ctx), { code: 'cancelled', detail: 'Processing was cancelled.' });
  });
  return artifactView(artifactByKey(ctx, input.kb_id, input.key), embeds(ctx));
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const datasetHandlers: Pick<Handlers, 'datasets.create' | 'datasets.list' | 'datasets.get' | 'datasets.update' | 'datasets.delete' | 'artifacts.list' | 'artifacts.get' | 'artifacts.link' | 'artifacts.delete' | 'artifacts.retry' | 'artifacts.cancel' | 'artifacts.content'> = {
  'datasets.create': createDataset,
  'datasets.list': listDatasets,
  'datasets.get': getDataset,
  'datasets.update': updateDataset,
  'datasets.delete': deleteDataset,
  'artifacts.list': listArtifacts,
  'artifacts.get': getArtifact,
  'artifacts.link': artifactLink,
  'artifacts.delete': deleteArtifact,
  'artifacts.retry': retryArtifact,
  'artifacts.cancel': cancelArtifact,
  'artifacts.content': artifactContent,
};
