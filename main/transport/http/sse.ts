import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Sequenced } from '../../../shared/events.js';
import { toErrorPayload } from './problem.js';

const HEARTBEAT_MS = 15_000;

function frame(event: { id?: number; event: string; data: unknown }): string {
  const id = event.id === undefined ? '' : `id: ${event.id}\n`;
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * Writes a stream of events as Server-Sent Events. A client that goes away stops the watching
 * (the iterator is returned), never the work behind it. Every write waits for the socket to drain.
 */
export async function sendSse(request: FastifyRequest, reply: FastifyReply, events: AsyncIterable<Sequenced>): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = String(value);
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();

  const iterator = events[Symbol.asyncIterator]();
  let gone = false;
  const onClose = () => {
    gone = true;
    void iterator.return?.();
  };
  request.raw.socket.on('close', onClose);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const write = async (text: string) => {
    if (gone) return;
    if (!res.write(text)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
  };

  try {
    while (!gone) {
      const next = await iterator.next();
      if (next.done) break;
      await write(frame(next.value));
    }
  } catch (error) {
    const { payload, unexpected } = toErrorPayload(error);
    if (unexpected) request.log.error({ err: error }, 'stream failed');
    await write(frame({ event: 'error', data: { code: payload.code, detail: payload.detail, message_id: null } }));
  } finally {
    clearInterval(heartbeat);
    request.raw.socket.off('close', onClose);
    res.end();
  }
}
