import type { FastifyReply, FastifyRequest } from 'fastify';

/** A comment line every so often keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export interface SseWriter {
  /** Writes raw SSE text, waiting for the socket to drain; a no-op once the client has gone. */
  write(text: string): Promise<void>;
  /** Whether the client has gone (its socket closed). */
  readonly gone: boolean;
  /** Stops the heartbeat and ends the response. */
  end(): void;
}

/**
 * Takes over the response for Server-Sent Events: the reply's headers (API version, CORS, …) plus
 * the event-stream ones, a heartbeat, back-pressure on every write, and `onGone` once when the
 * client's socket closes. The one writer behind `/api` streams and the OpenAI-compatible facade.
 */
export function openSse(request: FastifyRequest, reply: FastifyReply, onGone: () => void = () => {}): SseWriter {
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
  // The headers go out with the first event when it is ready in this turn of the event loop (a
  // chat's `message.created` is): one socket write instead of two, the cost of a write on loopback
  // being a good part of what Parley adds to the time to first token (test/bench/chat.ts). A
  // stream with nothing to say yet (a replay waiting for events) still sends them at once, next turn.
  const flush = setImmediate(() => {
    if (!res.headersSent && res.writable) res.flushHeaders();
  });

  let gone = false;
  const socket = request.raw.socket;
  const onClose = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  socket.on('close', onClose);
  const heartbeat = setInterval(() => {
    if (!gone && res.writable) res.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);

  return {
    get gone() {
      return gone;
    },
    async write(text: string) {
      if (gone || !res.writable) return;
      if (!res.write(text)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
    },
    end() {
      clearImmediate(flush);
      clearInterval(heartbeat);
      socket.off('close', onClose);
      res.end();
    },
  };
}
