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
