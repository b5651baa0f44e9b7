import { ServiceError } from '../../../../shared/errors.js';
import type { ThreadRecord, TitleSource } from '../../../db/repositories/threads.js';
import type { AuthedSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { assertDatasets } from '../../knowledge/datasets/access.js';
import { newId } from '../../platform/ids.js';
import { requestedWorkflow } from '../workflows/apply.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/** What reaching the caller's threads reads. */
export type ThreadCtx = AuthedSlice<'repos'>;

/* A caller's threads as other domains reach them (chat, branching): not through threads' handlers. */

/** A thread the caller owns, or not_found (never forbidden: other people's ids are not confirmed). */
export function ownThread(ctx: ThreadCtx, id: string): ThreadRecord {
  const row = ctx.repos.threads.get(id);
  if (!row || row.user_id !== ctx.caller.user.id) throw new ServiceError('not_found', `No thread ${id}.`);
  return row;
}

/**
 * A new thread of the caller's. Its title is the user's when they gave one; a thread started by a
 * message is titled by Parley (`first_message`), and gets a better title after its first answer.
 */
export function newThread(ctx: AuthedSlice<'repos' | 'config' | 'now'>, input: InputOf<'threads.create'>, titleSource: TitleSource = input.title === undefined ? 'first_message' : 'user'): ThreadRecord {
  assertDatasets(ctx, input.dataset_ids);
  requestedWorkflow(ctx, input.workflow_id);
  const id = newId('thr');
  ctx.repos.threads.insert({
    id,
    user_id: ctx.caller.user.id,
    workspace_id: ctx.caller.user.workspace_id,
    title: input.title ?? 'New chat',
    title_source: titleSource,
    suggestions_enabled: input.suggestions_enabled ?? false,
    system_prompt: input.system_prompt ?? null,
    temperature: input.temperature ?? null,
    max_tokens: input.max_tokens ?? null,
    workflow_id: input.workflow_id ?? null,
    dataset_ids: input.dataset_ids ?? [],
    now: isoNow(ctx),
  });
  return ownThread(ctx, id);
}
