import type { AuthedSlice } from '../../platform/context.js';
import type { InputOf } from '../../platform/operation-handlers.js';
import { threadDataset } from '../../knowledge/datasets/thread-files.js';
import { datasetView } from '../../knowledge/datasets/views.js';
import { ownThread } from './access.js';

/**
 * `POST /threads/{id}/files`: the thread's own dataset (made on the first attach), always among its
 * datasets: attached here, kept by `threads.update` and added by chat to what a message draws on.
 */
export function threadFiles(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'threads.files'>) {
  const thread = ownThread(ctx, input.id);
  const dataset = ctx.repos.transaction(() => {
    const own = threadDataset(ctx, thread);
    ctx.repos.threads.linkDataset(thread.id, own.id);
    return own;
  });
  return datasetView(dataset, true);
}

/** The datasets a thread is set to, with its own files among them whatever the list says. */
export function withOwnFiles(ctx: AuthedSlice<'repos'>, threadId: string, ids: string[]): string[];
export function withOwnFiles(ctx: AuthedSlice<'repos'>, threadId: string, ids: string[] | undefined): string[] | undefined;
export function withOwnFiles(ctx: AuthedSlice<'repos'>, threadId: string, ids: string[] | undefined): string[] | undefined {
  const own = ctx.repos.datasets.ofThread(threadId);
  if (!ids || !own || ids.includes(own.id)) return ids;
  return [...ids, own.id];
}
