import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { eventEnds, eventPieces, TURN_BYTES, type PieceOptions } from '../../../main/core/models/providers/sse-pieces.js';

const encoder = new TextEncoder();
const event = (i: number) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: ` w${i}` }, finish_reason: null }] })}\n\n`;

/** Runs `reads` through the splitter; answers the pieces it gives, as text. */
async function piecesOf(reads: Uint8Array[], options: PieceOptions = {}): Promise<string[]> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const read of reads) controller.enqueue(read);
      controller.close();
    },
  });
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  for await (const piece of source.pipeThrough(eventPieces(options))) pieces.push(decoder.decode(piece));
  return pieces;
}

describe('an event stream handed to the OpenAI SDK in event-sized pieces (issue 27: a runaway answer)', () => {
  it('one network read of 2,000 events reaches the SDK as 2,000 pieces of one event each, so its per-event copy is the size of an event, not of the read', async () => {
    const events = Array.from({ length: 2000 }, (_, i) => event(i));
    const pieces = await piecesOf([encoder.encode(events.join(''))]);
    expect(pieces).toEqual(events);
  });

  it('a read of a megabyte (a socket that filled while Parley was busy) is handed on a TURN_BYTES at a time, a turn of the event loop between', async () => {
    const fixed = `data: ${'a'.repeat(248)}\n\n`;
    expect(fixed.length).toBe(256);
    const count = (1024 * 1024) / fixed.length;
    let pauses = 0;
    const pieces = await piecesOf([encoder.encode(fixed.repeat(count))], { pause: async () => void pauses++ });
    expect(pieces.length).toBe(count);
    expect(pauses).toBe((1024 * 1024) / TURN_BYTES);
  });

  it('an event split across reads goes on whole in its parts, nothing lost or reordered; every blank-line style ends an event', async () => {
    const text = 'data: a\n\ndata: b\r\rdata: c\r\n\r\ndata: d\n\ndata: e';
    const cut = [5, 12, 13, 30];
    const reads = [0, ...cut].map((start, i) => encoder.encode(text).subarray(start, cut[i] ?? text.length));
    const pieces = await piecesOf(reads);
    expect(pieces.join('')).toBe(text);
    // Every piece ends at an event's end or at the end of its read.
    for (const piece of pieces.slice(0, -1)) expect(eventEnds(encoder.encode(piece)).length).toBeLessThanOrEqual(1);
    expect(eventEnds(encoder.encode(text))).toEqual([9, 18, 29, 38]);
  });

  it('the SDK reads every delta of one large read through the pieces', async () => {
    const events = Array.from({ length: 500 }, (_, i) => event(i));
    const body = encoder.encode(`${events.join('')}data: [DONE]\n\n`);
    const fetchOne = async (): Promise<Response> => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(body);
          controller.close();
        },
      });
      return new Response(stream.pipeThrough(eventPieces()), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    };
    const client = new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k', maxRetries: 0, fetch: fetchOne });
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(events.map((_, i) => ` w${i}`).join(''));
  });
});
