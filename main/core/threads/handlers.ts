import { ServiceError } from '../../../shared/errors.js';
import type { ThreadRow } from '../../db/repositories/threads.js';
import type { AuthedContext } from '../context.js';
import { isoNow } from '../context.js';
import { newId } from '../ids.js';
import { messageView, threadView } from './views.js';
import { requestedWorkflow } from '../workflows/apply.js';

type Settings = {
  dataset_ids?: string[] | undefined;
  suggestions_enabled?: boolean | undefined;
  system_prompt?: string | null | undefined;
  workflow_id?: string | null | undefined;
};

/** A thread the caller owns, or not_found (never forbidden: other people's ids are not confirmed). */
export function ownThread(ctx: AuthedContext, id: string): ThreadRow {
  const row = ctx.repos.threads.get(id);
  if (!row || row.user_id !== ctx.caller.user.id) throw new ServiceError('not_found', `No thread ${id}.`);
  return row;
}

/** Datasets attached to a thread or message must be datasets of the caller's organization. */
export function assertDatasets(ctx: AuthedContext, ids: string[] | undefined): void {
  if (!ids || ids.length === 0) return;
  const found = new Set(ctx.repos.datasets.existing(ids, ctx.caller.user.organization_id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ServiceError('not_found', `No dataset ${missing}.`);
}

export function viewThread(ctx: AuthedContext, row: ThreadRow) {
  return threadView(row, ctx.repos.threads.datasetIds(row.id));
}

export function newThread(ctx: AuthedContext, input: Settings & { title?: string | undefined }): ThreadRow {
  assertDatasets(ctx, input.dataset_ids);
  requestedWorkflow(ctx, input.workflow_id);
  const id = newId('thr');
  ctx.repos.threads.insert({
    id,
    user_id: ctx.caller.user.id,
    workspace_id: ctx.caller.user.workspace_id,
    title: input.title ?? 'New chat',
    suggestions_enabled: input.suggestions_enabled ?? false,
    system_prompt: input.system_prompt ?? null,
    workflow_id: input.workflow_id ?? null,
    dataset_ids: input.dataset_ids ?? [],
    now: isoNow(ctx),
  });
  return ownThread(ctx, id);
}

export function createThread(ctx: AuthedContext, input: Settings & { title?: string | undefined }) {
  return viewThread(ctx, newThread(ctx, input));
}

export function listThreads(ctx: AuthedContext, input: { limit: number; cursor?: string | undefined; q?: string | undefined }) {
  const page = ctx.repos.threads.page(ctx.caller.user.id, input.limit, input.cursor, input.q?.trim() || undefined);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  return { data: page.rows.map((row) => viewThread(ctx, row)), next_cursor: page.next_cursor };
}

export function getThread(ctx: AuthedContext, input: { id: string }) {
  return viewThread(ctx, ownThread(ctx, input.id));
}

export function updateThread(ctx: AuthedContext, input: Settings & { id: string; title?: string | undefined }) {
  ownThread(ctx, input.id);
  assertDatasets(ctx, input.dataset_ids);
  requestedWorkflow(ctx, input.workflow_id);
  ctx.repos.threads.update(input.id, input, isoNow(ctx));
  return viewThread(ctx, ownThread(ctx, input.id));
}

export function deleteThread(ctx: AuthedContext, input: { id: string }): null {
  ownThread(ctx, input.id);
  for (const message of ctx.repos.messages.history(input.id)) {
    if (message.status === 'streaming') ctx.runtime.hub.cancel(message.id);
  }
  ctx.repos.threads.delete(input.id);
  return null;
}

export function listMessages(ctx: AuthedContext, input: { id: string; limit: number; cursor?: string | undefined }) {
  ownThread(ctx, input.id);
  const page = ctx.repos.messages.page(input.id, input.limit, input.cursor);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  const thoughts = ctx.repos.thoughts.byMessage(page.rows.filter((r) => r.role === 'assistant').map((r) => r.id));
  return { data: page.rows.map((row) => messageView(row, thoughts.get(row.id))), next_cursor: page.next_cursor };
}

/** Suggestions are disabled by design: the answer is always 204, whatever the thread's setting. */
export function threadSuggestions(ctx: AuthedContext, input: { id: string }): null {
  ownThread(ctx, input.id);
  return null;
}
