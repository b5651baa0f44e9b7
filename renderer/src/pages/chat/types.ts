import type { Message, SequencedEvent } from '../../../../shared/events.js';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';

export type { Message };
export type Thread = OutputOf<Operations['threads.get']>;
/** A thread in the list: `match` when a search found it by one of its messages. */
export type ThreadListItem = OutputOf<Operations['threads.list']>['data'][number];
export type Model = OutputOf<Operations['models.list']>['data'][number];
export type ModelOverride = OutputOf<Operations['overrides.list']>['data'][number];

/** An empty answer being written, before the service has said its id. */
export function draftAnswer(threadId: string, id: string, parentId: string | null = null): Message {
  const now = new Date().toISOString();
  return { id, thread_id: threadId, parent_id: parentId, role: 'assistant', content: '', status: 'streaming', model_id: null, routing: null, citations: [], thoughts: [], usage: null, first_token_ms: null, latency_ms: null, images: [], error: null, created_at: now, updated_at: now };
}

/** One chat event applied to the answer it belongs to: the same fold for a live stream and a replay. */
export function applyEvent(answer: Message, event: SequencedEvent): Message {
  switch (event.event) {
    case 'message.created':
      return { ...answer, id: event.data.message_id, thread_id: event.data.thread_id, routing: event.data.routing, model_id: event.data.routing.model_id };
    case 'delta':
      return { ...answer, content: answer.content + event.data.content };
    case 'citation':
      return { ...answer, citations: [...answer.citations, event.data] };
    case 'thought':
      return { ...answer, thoughts: [...answer.thoughts, event.data] };
    case 'message.completed':
      return event.data.message;
    case 'error':
      return { ...answer, status: 'error', error: { code: event.data.code, detail: event.data.detail } };
    case 'thread.updated':
      // The thread's, not the answer's: the thread list hears it (useConversation).
      return answer;
  }
}
