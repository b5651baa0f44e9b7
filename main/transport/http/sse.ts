import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sequenced } from '../../../shared/events.js';
import { toErrorPayload } from './problem.js';
import { openSse } from './sse-writer.js';

function frame(event: { id?: number; event: string; data: unknown }): string {
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Writes a stream of events as Server-Sent Events. A client that goes away stops the watching
 * (the iterator is returned), never the work behind it. Every write waits for the socket to drain.
 */
export async function sendSse(request: FastifyRequest, reply: FastifyReply, events: AsyncIterable<Sequenced>): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const sse = openSse(request, reply, () => void iterator.return?.());
  try {
    while (!sse.gone) {
      const next = await iterator.next();
      if (next.done) break;
      await sse.write(frame(next.value));
    }
  } catch (error) {
    const { payload, unexpected } = toErrorPayload(error);
    if (unexpected) request.log.error({ err: error }, 'stream failed');
    await sse.write(frame({ event: 'error', data: { code: payload.code, detail: payload.detail, message_id: null } }));
  } finally {
    sse.end();
  }
}
