import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId } from '../../platform/ids.js';

/**
 * The dataset holding the files attached in a thread's composer, made on the first attach: the
 * caller's alone (not listed on the Datasets page, not visible to the rest of the organization),
 * deleted with the thread. The caller must own the thread (the threads domain checks).
 */
export function threadDataset(ctx: AuthedSlice<'repos' | 'now'>, thread: { id: string; title: string }): DatasetRecord {
  const found = ctx.repos.datasets.ofThread(thread.id);
  if (found) return found;
  // Named once, for an API client that lists it (`include=threads`); the thread may be renamed later.
  const id = insertDataset(ctx, { name: `Files of “${thread.title}”`.slice(0, 200), description: null, thread_id: thread.id });
  const made = ctx.repos.datasets.get(id);
  if (!made) throw new Error(`dataset ${id} vanished as it was made`);
  return made;
}

/** A new dataset and its knowledge base, owned by the caller in the caller's organization; its id. */
export function insertDataset(ctx: AuthedSlice<'repos' | 'now'>, fields: { name: string; description: string | null; thread_id?: string }): string {
  const id = newId('ds');
  ctx.repos.datasets.insert({
    id,
    kb_id: newId('kb'),
    organization_id: ctx.caller.user.organization_id,
    owner_id: ctx.caller.user.id,
    ...fields,
    now: isoNow(ctx),
  });
  return id;
}
