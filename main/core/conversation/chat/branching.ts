import { ServiceError } from '../../../../shared/errors.js';
import type { Routing } from '../../../../shared/events.js';
import type { MessageRecord } from '../../../db/repositories/messages.js';
import type { ContextSlice } from '../../platform/context.js';
import { ownThread, type ThreadCtx } from '../threads/access.js';
import { readBranch } from './branch.js';
import { findModel } from '../../models/catalog/catalog.js';
import { ownMessage } from '../threads/owned.js';
import { startAnswer, type ChatCtx, type StartedChat } from './send.js';
import type { InputOf } from '../../platform/operation-handlers.js';
import { newId } from '../../platform/ids.js';

/** The question an answer responds to: its parent, a user message. */
function questionOf(ctx: ContextSlice<'repos'>, answer: MessageRecord): MessageRecord {
  const question = answer.parent_id ? ctx.repos.messages.get(answer.parent_id) : undefined;
  if (!question || question.role !== 'user') throw new ServiceError('conflict', `The question that ${answer.id} answers is no longer in the thread.`);
  return question;
}

function ownAnswer(ctx: ThreadCtx, id: string): MessageRecord {
  const row = ownMessage(ctx, id);
  if (row.role !== 'assistant') throw new ServiceError('invalid_argument', `${id} is your message, not an answer.`, [{ path: 'message_id', message: 'must be an answer' }]);
  return row;
}

function notRunning(ctx: ContextSlice<never, 'hub'>, row: MessageRecord): void {
  if (row.status === 'streaming' || ctx.runtime.hub.isRunning(row.id)) throw new ServiceError('conflict', 'This answer is still being written; stop it or wait for it to end.');
}

/** A new answer to an earlier answer's question, after the thread's newest message; the old one is kept. */
export function startRegenerate(ctx: ChatCtx, input: InputOf<'chat.regenerate'>): StartedChat {
  const answer = ownAnswer(ctx, input.message_id);
  notRunning(ctx, answer);
  const question = questionOf(ctx, answer);
  const thread = ownThread(ctx, answer.thread_id);
  const branch = readBranch(ctx, thread.id, question.parent_id, input.model_endpoint_override);
  const request = { thread_id: thread.id, message: question.content, agentic: input.agentic, model_endpoint_override: input.model_endpoint_override };
  return startAnswer(ctx, { thread, request, workflow: null, branch, question: { kind: 'stored', row: question } });
}

/** An edited question: a new message that follows what the old one followed, and its answer. */
export function startEdit(ctx: ChatCtx, input: InputOf<'chat.edit'>): StartedChat {
  const old = ownMessage(ctx, input.message_id);
  if (old.role !== 'user') throw new ServiceError('invalid_argument', 'Only your own messages can be edited; regenerate an answer instead.', [{ path: 'message_id', message: 'must be a user message' }]);
  const thread = ownThread(ctx, old.thread_id);
  const branch = readBranch(ctx, thread.id, old.parent_id, input.model_endpoint_override);
  const request = { thread_id: thread.id, message: input.message, agentic: input.agentic, model_endpoint_override: input.model_endpoint_override };
  // The edited question keeps the old one's images (the edit changes its text only).
  const images = ctx.repos.messageImages.withData(old.id).map((image) => ({ id: newId('img'), name: image.name, media_type: image.media_type, data: image.data }));
  return startAnswer(ctx, { thread, request, workflow: null, branch, question: { kind: 'new', parent_id: old.parent_id }, images });
}

/** The same answer streams again, from its kept text, and the model goes on with it. */
export function startContinue(ctx: ChatCtx, input: InputOf<'chat.continue'>): StartedChat {
  const answer = ownAnswer(ctx, input.message_id);
  notRunning(ctx, answer);
  if (answer.status === 'complete') throw new ServiceError('conflict', 'This answer is complete; regenerate it for another one.');
  const question = questionOf(ctx, answer);
  const thread = ownThread(ctx, answer.thread_id);
  // The model that wrote the answer finishes it, whatever a client's picker shows now (a reload
  // resets it to Auto); another model only when one is named, or when the writer is gone.
  const writer = input.model_endpoint_override === undefined ? answer.model_id : null;
  const writerGone = writer !== null && !findModel(ctx, writer);
  const target = input.model_endpoint_override ?? (writer !== null && !writerGone ? writer : undefined);
  const branch = readBranch(ctx, thread.id, question.parent_id, target);
  const request = { thread_id: thread.id, message: question.content, agentic: false, model_endpoint_override: target };
  return startAnswer(ctx, { thread, request, workflow: null, branch, question: { kind: 'stored', row: question }, continued: answer, routingFor: continuedRouting(answer, writer, writerGone) });
}

/**
 * How a continued answer's routing reads: the writer going on keeps the answer's routing (its label
 * still says how it was chosen); a routed successor to a removed writer names both models.
 */
function continuedRouting(answer: MessageRecord, writer: string | null, gone: boolean): ((chosen: Routing) => Routing) | undefined {
  if (writer === null) return undefined;
  if (gone) {
    return (chosen) => ({
      ...chosen,
      reason: `The model that wrote the start of this answer (${writer}) is no longer available, so another goes on with it. ${chosen.reason}`,
      skipped: [{ model_id: writer, code: 'not_found', detail: 'The model that wrote the start of this answer was removed.' }, ...chosen.skipped],
    });
  }
  return (chosen) => (answer.routing?.model_id === chosen.model_id ? answer.routing : chosen);
}
