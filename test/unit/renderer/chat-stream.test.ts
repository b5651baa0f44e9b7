import { describe, expect, it } from 'vitest';
import type { StreamMessage } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import { createBridgeTransport } from '../../../renderer/src/api/bridge-transport.js';
import { createClient, type ChatStreamSignal } from '../../../renderer/src/api/client.js';
import { createHttpTransport } from '../../../renderer/src/api/http-transport.js';
import { applyEvent, draftAnswer } from '../../../renderer/src/pages/chat/types.js';

const ROUTING = { mode: 'dynamic', model_id: 'mdl_a', reason: 'short question', skipped: [] };

function sseBody(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

function collect(open: (onSignal: (s: ChatStreamSignal) => void) => () => void): Promise<ChatStreamSignal[]> {
  return new Promise((resolve) => {
    const signals: ChatStreamSignal[] = [];
    open((signal) => {
      signals.push(signal);
      if (signal.type !== 'event') resolve(signals);
    });
  });
}

describe('chat streams over fetch + SSE', () => {
  it('parses events split across chunks, sends the input as JSON and the replay point as Last-Event-ID', async () => {
    const requests: Array<{ url: string; init: RequestInit | undefined }> = [];
    const fakeFetch: typeof fetch = async (url, init) => {
      requests.push({ url: String(url), init });
      const created = `event: message.created\nid: 0\ndata: ${JSON.stringify({ thread_id: 'thr_1', user_message_id: 'msg_u', message_id: 'msg_a', routing: ROUTING })}\n\n`;
      return new Response(sseBody([created.slice(0, 30), created.slice(30), 'event: delta\nid: 1\ndata: {"content":"Hel', 'lo"}\n\n']), { headers: { 'content-type': 'text/event-stream' } });
    };
    const client = createClient(createHttpTransport({ baseUrl: 'http://x/api', token: () => 'pk_t', fetch: fakeFetch }));
    const signals = await collect((on) => client.streamChat('chat.send', { message: 'hi', stream: true }, {}, on));
    expect(signals.map((s) => (s.type === 'event' ? `${s.event.id}:${s.event.event}` : s.type))).toEqual(['0:message.created', '1:delta', 'end']);
    expect(requests[0]?.init?.method).toBe('POST');
    expect(JSON.parse(String(requests[0]?.init?.body))).toEqual({ message: 'hi', stream: true });

    await collect((on) => client.streamChat('chat.stream', { message_id: 'msg_a' }, { lastEventId: 4 }, on));
    expect(requests[1]?.url).toBe('http://x/api/chat/msg_a/stream');
    expect((requests[1]?.init?.headers as Record<string, string>)['Last-Event-ID']).toBe('4');
  });

  it('a refusal before the stream starts is a ServiceError with its code', async () => {
    const fakeFetch: typeof fetch = async () => new Response(JSON.stringify({ code: 'not_found', detail: 'No such thread.' }), { status: 404, headers: { 'content-type': 'application/problem+json' } });
    const client = createClient(createHttpTransport({ baseUrl: 'http://x/api', token: () => null, fetch: fakeFetch }));
    const [signal] = await collect((on) => client.streamChat('chat.send', { message: 'hi', thread_id: 'thr_x', stream: true }, {}, on));
    expect(signal?.type).toBe('error');
    const error = signal?.type === 'error' ? signal.error : null;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error?.code).toBe('not_found');
  });

  it('an event that breaks the contract ends the stream with an error', async () => {
    const fakeFetch: typeof fetch = async () => new Response(sseBody(['event: delta\nid: 0\ndata: {"text":1}\n\n']));
    const client = createClient(createHttpTransport({ baseUrl: 'http://x/api', token: () => null, fetch: fakeFetch }));
    const signals = await collect((on) => client.streamChat('chat.stream', { message_id: 'msg_a' }, {}, on));
    expect(signals.map((s) => s.type)).toEqual(['error']);
  });
});

describe('chat streams over the desktop bridge', () => {
  it("forwards the port's messages and passes the replay point in the input", async () => {
    let received: unknown;
    const transport = createBridgeTransport({
      kind: 'desktop',
      invoke: async () => ({ ok: true, value: null }),
      uploadPart: async () => ({ ok: true, value: null }),
      pickFolder: async () => ({ ok: true, value: null }),
      stream(_operation, input, onMessage: (m: StreamMessage) => void) {
        received = input;
        queueMicrotask(() => {
          onMessage({ type: 'event', event: { id: 5, event: 'delta', data: { content: 'x' } } });
          onMessage({ type: 'error', error: new ServiceError('unavailable', 'gone').toPayload() });
        });
        return () => undefined;
      },
    });
    const signals = await collect((on) => createClient(transport).streamChat('chat.stream', { message_id: 'msg_a' }, { lastEventId: 4 }, on));
    expect(received).toEqual({ message_id: 'msg_a', last_event_id: 4 });
    expect(signals[0]).toMatchObject({ type: 'event', event: { id: 5, event: 'delta' } });
    expect(signals[1]?.type).toBe('error');
  });
});

describe('an answer folded from its events', () => {
  it('builds the same message from a replay as from the live stream', () => {
    let answer = draftAnswer('', 'draft');
    answer = applyEvent(answer, { id: 0, event: 'message.created', data: { thread_id: 'thr_1', user_message_id: 'msg_u', message_id: 'msg_a', routing: { ...ROUTING, mode: 'dynamic' } } });
    answer = applyEvent(answer, { id: 1, event: 'citation', data: { index: 1, dataset_id: 'ds_1', artifact_id: 'art_1', artifact_key: 'a.md', snippet: 's', location: {} } });
    answer = applyEvent(answer, { id: 2, event: 'delta', data: { content: 'Hel' } });
    answer = applyEvent(answer, { id: 3, event: 'delta', data: { content: 'lo' } });
    answer = applyEvent(answer, { id: 4, event: 'error', data: { code: 'unavailable', detail: 'upstream closed', message_id: 'msg_a' } });
    expect(answer).toMatchObject({ id: 'msg_a', content: 'Hello', status: 'error', error: { code: 'unavailable', detail: 'upstream closed' } });
    expect(answer.citations).toHaveLength(1);
  });
});
