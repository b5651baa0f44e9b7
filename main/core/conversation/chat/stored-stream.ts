import type { SequencedEvent } from '../../../../shared/events.js';
import type { MessageRecord } from '../../../db/repositories/messages.js';
import type { ContextSlice } from '../../platform/context.js';
import { messageView } from '../threads/views.js';

/**
 * How a follower reads an answer another instance is writing: again every `pollMs` (each delta
 * is already stored as it comes, messages.append), giving up once nothing changed for `stalledMs`
 * (the instance writing it stopped: a crash, a lost connection).
 */
export const FOLLOW_TIMING = { pollMs: 250, stalledMs: 120_000 };

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function created(row: MessageRecord, routing: NonNullable<ReturnType<typeof messageView>['routing']>): SequencedEvent {
  return { id: 0, event: 'message.created', data: { thread_id: row.thread_id, user_message_id: row.parent_id ?? '', message_id: row.id, routing } };
}

const routingOf = (message: ReturnType<typeof messageView>) => message.routing ?? { mode: 'dynamic' as const, model_id: message.model_id ?? '', reason: '', skipped: [] };

/** An ended answer's last events: its citations, then how it ended. */
function* ending(message: ReturnType<typeof messageView>, row: MessageRecord, next: () => number): Iterable<SequencedEvent> {
  for (const citation of message.citations) yield { id: next(), event: 'citation', data: citation };
  if (message.status === 'error' || message.status === 'interrupted') {
    yield { id: next(), event: 'error', data: { code: message.error?.code ?? 'internal', detail: message.error?.detail ?? '', message_id: row.id } };
  } else {
    yield { id: next(), event: 'message.completed', data: { message } };
  }
}

/**
 * A stored answer as a stream: created, its agent's thoughts, its whole text as one delta, its citations, then its end.
 * Used once the live log is no longer kept (after the retention time, or after a restart).
 */
export async function* replayStored(ctx: ContextSlice<'repos'>, row: MessageRecord | undefined): AsyncIterable<SequencedEvent> {
  if (!row) return;
  const message = messageView(row, ctx.repos.thoughts.ofMessage(row.id));
  let id = 0;
  const next = () => id++;
  yield created(row, routingOf(message));
  next();
  for (const thought of message.thoughts) yield { id: next(), event: 'thought', data: thought };
  if (message.content) yield { id: next(), event: 'delta', data: { content: message.content } };
  yield* ending(message, row, next);
}

/**
 * An answer being written by another instance, followed in the database they share: what is
 * stored so far, then each new thought and piece of text as it is stored, then its end.
 */
export async function* followStored(ctx: ContextSlice<'repos'>, row: MessageRecord, timing = FOLLOW_TIMING, now = () => Date.now()): AsyncIterable<SequencedEvent> {
  let id = 0;
  const next = () => id++;
  yield created(row, routingOf(messageView(row, [])));
  next();
  let sent = 0;
  let thoughtsSent = 0;
  let changed = now();
  for (;;) {
    const current = ctx.repos.messages.get(row.id);
    if (!current) return;
    const message = messageView(current, ctx.repos.thoughts.ofMessage(row.id));
    for (const thought of message.thoughts.slice(thoughtsSent)) yield { id: next(), event: 'thought', data: thought };
    const text = current.content;
    const fresh = message.thoughts.length > thoughtsSent || text.length > sent;
    thoughtsSent = message.thoughts.length;
    if (text.length > sent) {
      yield { id: next(), event: 'delta', data: { content: text.slice(sent) } };
      sent = text.length;
    }
    if (current.status !== 'streaming') {
      yield* ending(message, current, next);
      return;
    }
    if (fresh) changed = now();
    else if (now() - changed > timing.stalledMs) {
      yield { id: next(), event: 'error', data: { code: 'unavailable', detail: 'The instance writing this answer stopped: nothing new was stored for two minutes.', message_id: row.id } };
      return;
    }
    await pause(timing.pollMs);
  }
}
