import { ServiceError } from '../../../../shared/errors.js';
import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';
import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import { callerIs } from '../../platform/auth/roles.js';
import type { AuthedSlice } from '../../platform/context.js';

/** The part of a context the guards read: the stores and the caller. */
export type DatasetCtx = AuthedSlice<'repos'>;

/*
 * Who may see and change which dataset: the guards every domain that touches datasets uses
 * (threads, chat, comparisons, workflows, uploads, reports, search), kept out of handlers.ts so no
 * domain imports another's handlers.
 */

/** Datasets attached to a thread, message, workflow or comparison must be datasets of the caller's organization. */
export function assertDatasets(ctx: DatasetCtx, ids: readonly string[] | undefined): void {
  if (!ids || ids.length === 0) return;
  const found = new Set(ctx.repos.datasets.existing([...ids], ctx.caller.user.organization_id, ctx.caller.user.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ServiceError('not_found', `No dataset ${missing}.`);
}

/**
 * Whether the caller may see the dataset at all: any of their organization's, except the files
 * attached in someone else's thread, which are as private as the thread (admins included).
 */
export function visible(ctx: DatasetCtx, row: DatasetRecord | undefined): row is DatasetRecord {
  if (!row || row.organization_id !== ctx.caller.user.organization_id) return false;
  return row.thread_id === null || row.owner_id === ctx.caller.user.id;
}

/** A dataset the caller may see (`visible`), or not_found. */
export function orgDataset(ctx: DatasetCtx, id: string): DatasetRecord {
  const row = ctx.repos.datasets.get(id);
  if (!visible(ctx, row)) throw new ServiceError('not_found', `No dataset ${id}.`);
  return row;
}

/** A knowledge base the caller may see (`visible`), or not_found. */
export function orgKb(ctx: DatasetCtx, kbId: string): DatasetRecord {
  const row = ctx.repos.datasets.getByKb(kbId);
  if (!visible(ctx, row)) throw new ServiceError('not_found', `No knowledge base ${kbId}.`);
  return row;
}

export function artifactByKey(ctx: DatasetCtx, kbId: string, key: string): ArtifactRecord {
  orgKb(ctx, kbId);
  const row = ctx.repos.artifacts.getByKey(kbId, key);
  if (!row) throw new ServiceError('not_found', `No artifact ${JSON.stringify(key)} in ${kbId}.`);
  return row;
}

/**
 * Datasets are shared for reading within the organization (everyone may list, open, search and chat
 * with them), but only the dataset's owner or an admin writes to it: rename, upload, retry, delete
 * files, delete it.
 */
export function canWrite(ctx: AuthedSlice, dataset: DatasetRecord): boolean {
  return callerIs(ctx, 'admin') || dataset.owner_id === ctx.caller.user.id;
}

export function mayWrite(ctx: AuthedSlice, dataset: DatasetRecord): void {
  if (!canWrite(ctx, dataset)) {
    throw new ServiceError('forbidden', `Only its owner or an admin may change the dataset ${JSON.stringify(dataset.name)}; you may read it and chat with it.`);
  }
}
