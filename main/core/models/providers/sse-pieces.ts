/**
 * The OpenAI SDK (6.x, `iterSSEChunks`) finds each server-sent event by scanning its buffer from
 * the start and then copying the rest of the buffer past it: a network read holding n events costs
 * it n copies of that read. An upstream that streams faster than Parley reads (a runaway answer
 * over loopback) fills the socket, and the next read is all of it: megabytes of ~500-byte events,
 * so those copies grow with the square of the read. Handing the SDK one event per piece makes its
 * work O(event): the pieces are views of the read (no copy here), cut after each event's blank
 * line; where no blank line falls inside a read, the read goes on whole (the SDK joins it with the
 * next, as before).
 */

import { nextTurn } from '../../platform/next-turn.js';

/** Where the blank line ending each event ends in `bytes` (`\n\n`, `\r\r`, `\r\n\r\n`): the offsets just past each. */
export function eventEnds(bytes: Uint8Array): number[] {
  const ends: number[] = [];
  const LF = 0x0a;
  const CR = 0x0d;
  for (let i = 0; i + 1 < bytes.length; i++) {
    const a = bytes[i];
    const b = bytes[i + 1];
    if ((a === LF && b === LF) || (a === CR && b === CR)) {
      ends.push(i + 2);
      i++;
    } else if (a === CR && b === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) {
      ends.push(i + 4);
      i += 3;
    }
  }
  return ends;
}

/** Bytes of events handed on between two turns of the event loop. */
export const TURN_BYTES = 64 * 1024;

export interface PieceOptions {
  /** Bytes handed on before the next turn of the event loop; TURN_BYTES by default. */
  turnBytes?: number;
  /** How to wait for that turn (tests count the waits). */
  pause?: () => Promise<void>;
}

/**
 * Cuts a byte stream into pieces that end where an event ends (the last piece of a read may be
 * part of one), and hands on at most `turnBytes` of them per turn of the event loop. When Parley
 * reads slower than an upstream writes, the socket fills, and the next read is all of it at once
 * (megabytes); the SDK then parses it in one run of promise callbacks — no timer, no other request
 * between — which held `/api/health` for 300–500 ms at a time under three runaway answers.
 */
export function eventPieces(options: PieceOptions = {}): TransformStream<Uint8Array, Uint8Array> {
  const turnBytes = options.turnBytes ?? TURN_BYTES;
  const pause = options.pause ?? nextTurn;
  let since = 0;
  const handOn = async (piece: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => {
    controller.enqueue(piece);
    since += piece.length;
    if (since < turnBytes) return;
    since = 0;
    await pause();
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    async transform(chunk, controller) {
      let start = 0;
      for (const end of eventEnds(chunk)) {
        await handOn(chunk.subarray(start, end), controller);
        start = end;
      }
      if (start < chunk.length) await handOn(chunk.subarray(start), controller);
    },
  });
}

/**
 * `fetch` for the SDK's client: an event stream's body comes in event-sized pieces; anything else
 * (a JSON error, a model list) as it is.
 */
export async function eventSizedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (!response.body || !response.headers.get('content-type')?.includes('text/event-stream')) return response;
  return new Response(response.body.pipeThrough(eventPieces()), { status: response.status, statusText: response.statusText, headers: response.headers });
}
