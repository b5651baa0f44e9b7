import { ServiceError } from '../../../../shared/errors.js';
import type { MessageRecord } from '../../../db/repositories/messages.js';
import { ownThread, type ThreadCtx } from './access.js';

/** A message in one of the caller's threads; anyone else's is not found. */
export function ownMessage(ctx: ThreadCtx, id: string): MessageRecord {
  const row = ctx.repos.messages.get(id);
  if (!row) throw new ServiceError('not_found', `No message ${id}.`);
  try {
    ownThread(ctx, row.thread_id);
  } catch {
    throw new ServiceError('not_found', `No message ${id}.`);
  }
  return row;
}
