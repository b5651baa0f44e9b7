import type { SequencedEvent } from '../../../../shared/events.js';
import { ServiceError } from '../../../../shared/errors.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { messageView } from '../threads/views.js';
import { startChat, type ChatCtx, type StartedChat } from './send.js';
import { startContinue, startEdit, startRegenerate } from './branching.js';
import { ownMessage } from '../threads/owned.js';
import { followStored, replayStored } from './stored-stream.js';
import { cancelAnywhere } from '../../answering/index.js';
import type { HandlersFor, InputOf, StreamHandlers } from '../../platform/operation-handlers.js';

function reload(ctx: ContextSlice<'repos'>, id: string) {
  const row = ctx.repos.messages.get(id);
  if (!row) throw new ServiceError('not_found', `The message ${id} was deleted.`);
  return messageView(row, ctx.repos.thoughts.ofMessage(id));
}

/** Non-streaming: waits for the end of the answer, whatever it is, and answers the stored message. */
async function answered(ctx: ContextSlice<'repos', 'hub'>, started: StartedChat) {
  await ctx.runtime.hub.finished(started.message_id);
  return { thread_id: started.thread_id, user_message_id: started.user_message_id, message: reload(ctx, started.message_id) };
}

/** Streaming: the live events of the answer. */
function live(ctx: ContextSlice<'repos', 'hub'>, started: StartedChat): AsyncIterable<SequencedEvent> {
  return ctx.runtime.hub.subscribe(started.message_id) ?? replayStored(ctx, ctx.repos.messages.get(started.message_id));
}

export const sendChat = (ctx: ChatCtx, input: InputOf<'chat.send'>) => answered(ctx, startChat(ctx, input));
export const streamChat = (ctx: ChatCtx, input: InputOf<'chat.send'>) => live(ctx, startChat(ctx, input));

export const regenerateChat = (ctx: ChatCtx, input: InputOf<'chat.regenerate'>) => answered(ctx, startRegenerate(ctx, input));
export const streamRegenerate = (ctx: ChatCtx, input: InputOf<'chat.regenerate'>) => live(ctx, startRegenerate(ctx, input));
export const editChat = (ctx: ChatCtx, input: InputOf<'chat.edit'>) => answered(ctx, startEdit(ctx, input));
export const streamEdit = (ctx: ChatCtx, input: InputOf<'chat.edit'>) => live(ctx, startEdit(ctx, input));
export const continueChat = (ctx: ChatCtx, input: InputOf<'chat.continue'>) => answered(ctx, startContinue(ctx, input));
export const streamContinue = (ctx: ChatCtx, input: InputOf<'chat.continue'>) => live(ctx, startContinue(ctx, input));

export async function cancelChat(ctx: AuthedSlice<'repos', 'hub' | 'notices'>, input: InputOf<'chat.cancel'>) {
  const row = ownMessage(ctx, input.message_id);
  if (row.role !== 'assistant') throw new ServiceError('invalid_argument', 'Only an answer can be cancelled.');
  // Cancelling a finished answer changes nothing and says so by its status; one another instance
  // writes is stopped there (the team server).
  await cancelAnywhere(ctx.runtime, row.id, () => ctx.repos.messages.get(row.id)?.status === 'streaming');
  return { message: reload(ctx, row.id) };
}

/**
 * Re-attach: live or retained events after `last_event_id`; an older answer is replayed from
 * storage; an answer another instance is writing (the team server: several instances on one
 * database) is followed in storage until it ends.
 */
export function attachChat(ctx: AuthedSlice<'repos', 'hub'>, input: InputOf<'chat.stream'>): AsyncIterable<SequencedEvent> {
  const row = ownMessage(ctx, input.message_id);
  if (row.role !== 'assistant') throw new ServiceError('invalid_argument', 'Only an answer has a stream.');
  return ctx.runtime.hub.subscribe(row.id, input.last_event_id ?? -1) ?? (row.status === 'streaming' ? followStored(ctx, row) : replayStored(ctx, row));
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const chatHandlers: HandlersFor<'chat'> = {
  'chat.send': sendChat,
  'chat.cancel': cancelChat,
  'chat.regenerate': regenerateChat,
  'chat.edit': editChat,
  'chat.continue': continueChat,
  'chat.stream': () => {
    throw new Error('chat.stream only streams');
  },
};

/** The streaming side of this domain's operations that stream. */
export const chatStreams: Pick<StreamHandlers, 'chat.send' | 'chat.stream' | 'chat.regenerate' | 'chat.edit' | 'chat.continue'> = {
  'chat.send': streamChat,
  'chat.stream': attachChat,
  'chat.regenerate': streamRegenerate,
  'chat.edit': streamEdit,
  'chat.continue': streamContinue,
};
