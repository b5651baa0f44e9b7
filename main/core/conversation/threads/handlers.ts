import { ServiceError } from '../../../../shared/errors.js';
import type { ThreadRecord } from '../../../db/repositories/threads.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { messageView, threadView } from './views.js';
import { newThread, ownThread, type ThreadCtx } from './access.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { requestedWorkflow } from '../workflows/apply.js';
import { dropDataset } from '../../knowledge/datasets/drop.js';
import { threadFiles, withOwnFiles } from './files.js';
import { threadMatch } from './search-match.js';
import type { HandlersFor, InputOf } from '../../platform/operation-handlers.js';
// Kept for main/core/knowledge/retrieval/handlers.ts until the retrieval branch imports datasets/access.js (remove at merge).

export function viewThread(ctx: ThreadCtx, row: ThreadRecord) {
  return threadView(row, ctx.repos.threads.datasetIds(row.id));
}

export function createThread(ctx: AuthedSlice<'repos' | 'config' | 'now'>, input: InputOf<'threads.create'>) {
  return viewThread(ctx, newThread(ctx, input));
}

export function listThreads(ctx: ThreadCtx, input: InputOf<'threads.list'>) {
  const page = ctx.repos.threads.page(ctx.caller.user.id, input.limit, input.cursor, input.q?.trim() || undefined);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  const q = input.q?.trim() ?? '';
  const data = page.rows.map(({ hit, ...row }) => ({ ...viewThread(ctx, row), ...(hit ? { match: threadMatch(hit, q) } : {}) }));
  return { data, next_cursor: page.next_cursor };
}

export function getThread(ctx: ThreadCtx, input: InputOf<'threads.get'>) {
  return viewThread(ctx, ownThread(ctx, input.id));
}

export function updateThread(ctx: AuthedSlice<'repos' | 'config' | 'now'>, input: InputOf<'threads.update'>) {
  ownThread(ctx, input.id);
  assertDatasets(ctx, input.dataset_ids);
  requestedWorkflow(ctx, input.workflow_id);
  // The thread's own files stay among its datasets whatever the new list says.
  ctx.repos.threads.update(input.id, { ...input, dataset_ids: withOwnFiles(ctx, input.id, input.dataset_ids) }, isoNow(ctx));
  return viewThread(ctx, ownThread(ctx, input.id));
}

export async function deleteThread(ctx: AuthedSlice<'repos', 'hub' | 'notices' | 'folders' | 'blobs'>, input: InputOf<'threads.delete'>): Promise<null> {
  ownThread(ctx, input.id);
  // An answer another instance writes (the team server) is stopped there, without waiting for it.
  for (const id of ctx.repos.messages.streamingIn(input.id)) {
    if (ctx.runtime.hub.holds(id)) void ctx.runtime.hub.cancel(id);
    else ctx.runtime.notices.publish('answer.cancel', id);
  }
  // Its attached files go as a deleted dataset's do, stored bytes included (the rows' cascade alone would leave those).
  const files = ctx.repos.datasets.ofThread(input.id);
  if (files) await dropDataset(ctx, files);
  // One statement for a thread of 100,000 messages held the event loop for seconds: its messages go
  // in batches, other requests served between them; the thread (and whatever was added meanwhile) last.
  while (ctx.repos.messages.deleteSome(input.id) > 0) await new Promise<void>((resolve) => setImmediate(resolve));
  ctx.repos.threads.delete(input.id);
  return null;
}

export function listMessages(ctx: ThreadCtx, input: InputOf<'threads.messages'>) {
  ownThread(ctx, input.id);
  const page = ctx.repos.messages.page(input.id, input.limit, input.cursor);
  if (!page) throw new ServiceError('invalid_argument', 'The cursor is not one this server gave out.', [{ path: 'cursor', message: 'unknown cursor' }]);
  const thoughts = ctx.repos.thoughts.byMessage(page.rows.filter((r) => r.role === 'assistant').map((r) => r.id));
  const images = ctx.repos.messageImages.byMessage(page.rows.filter((r) => r.role === 'user').map((r) => r.id));
  return { data: page.rows.map((row) => messageView(row, thoughts.get(row.id), images.get(row.id))), next_cursor: page.next_cursor };
}

/** Suggestions are disabled by design: the answer is always 204, whatever the thread's setting. */
export function threadSuggestions(ctx: ThreadCtx, input: InputOf<'threads.suggestions'>): null {
  ownThread(ctx, input.id);
  return null;
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const threadHandlers: HandlersFor<'threads'> = {
  'threads.create': createThread,
  'threads.list': listThreads,
  'threads.get': getThread,
  'threads.update': updateThread,
  'threads.delete': deleteThread,
  'threads.files': threadFiles,
  'threads.messages': listMessages,
  'threads.suggestions': threadSuggestions,
};
