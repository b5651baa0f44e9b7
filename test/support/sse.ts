import { EventSourceParserStream } from 'eventsource-parser/stream';

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** The events of an SSE response body, parsed by a library made for it. */
export async function* readSse(response: Response): AsyncIterable<SseEvent> {
  if (!response.body) return;
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) yield { id: event.id, event: event.event, data: event.data };
}

/** Reads a whole chat stream: every event with its data parsed. */
export async function collectChat(response: Response): Promise<Array<{ id: number; event: string; data: Record<string, unknown> }>> {
  const out: Array<{ id: number; event: string; data: Record<string, unknown> }> = [];
  for await (const e of readSse(response)) out.push({ id: Number(e.id), event: e.event ?? 'message', data: JSON.parse(e.data) as Record<string, unknown> });
  return out;
}

/** What a chat stream has said so far: its ids, the events' names, and the answer's text. */
export interface ChatStreamSoFar {
  threadId: string;
  messageId: string;
  events: string[];
  text: string;
}

/**
 * Reads a chat stream to its end, calling `onDelta` after each piece of text with what came so far
 * (a test cancels or kills there); `onDelta` answering true stops reading at once.
 */
export async function followChat(response: Response, onDelta: (so: ChatStreamSoFar) => Promise<boolean | void> | boolean | void = () => {}): Promise<ChatStreamSoFar> {
  const so: ChatStreamSoFar = { threadId: '', messageId: '', events: [], text: '' };
  for await (const e of readSse(response)) {
    so.events.push(e.event ?? '');
    const payload = JSON.parse(e.data) as { thread_id?: string; message_id?: string; content?: string };
    if (e.event === 'message.created') {
      so.threadId = payload.thread_id ?? '';
      so.messageId = payload.message_id ?? '';
    }
    if (e.event === 'delta') {
      so.text += payload.content ?? '';
      if ((await onDelta(so)) === true) break;
    }
  }
  return so;
}
