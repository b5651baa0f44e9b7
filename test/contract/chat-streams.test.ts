import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { startHttpServer } from '../../main/transport/http/server.js';
import { SLOW_TEXT, startUpstream, type Upstream } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY, tempDir } from '../support/core.js';
import { collectChat, readSse } from '../support/sse.js';

type Msg = { id: string; content: string; status: string; model_id: string; error: { code: string; detail: string } | null; routing: { reason: string; skipped: Array<{ model_id: string }> } };

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const stream = (body: Record<string, unknown>, signal?: AbortSignal) =>
  h.api('/chat', { method: 'POST', body: JSON.stringify({ ...body, stream: true }), ...(signal ? { signal } : {}) });

const messagesOf = async (threadId: string) => (await h.json<{ data: Msg[] }>(`/threads/${threadId}/messages`, 'GET')).body.data;
const messageById = async (threadId: string, id: string) => (await messagesOf(threadId)).find((m) => m.id === id);

/** `probe`'s first answer other than undefined: what the server does after the stream (a flush, the end). */
function until<T>(probe: () => Promise<T | undefined>, what: string, timeout = 10_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe();
      if (value === undefined) throw new Error(`still waiting for ${what}`);
      return value;
    },
    { timeout, interval: 25 },
  );
}

describe('streaming chat', () => {
  it('sends message.created, deltas, then message.completed, with increasing ids; the stored text is the streamed text', async () => {
    const slow = await h.addModel('Slow', 'slow:5');
    const res = await stream({ message: 'count', model_endpoint_override: slow });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = await collectChat(res);
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i));
    // After the answer's end, the new thread's title (written by the model once the answer was done).
    expect(all.at(-1)?.event).toBe('thread.updated');
    const events = all.slice(0, -1);
    expect(events[0]?.event).toBe('message.created');
    expect(events.at(-1)?.event).toBe('message.completed');
    expect(events.slice(1, -1).every((e) => e.event === 'delta')).toBe(true);
    const streamed = events.filter((e) => e.event === 'delta').map((e) => e.data.content).join('');
    expect(streamed).toBe(SLOW_TEXT);
    const created = events[0]?.data as { thread_id: string; message_id: string; user_message_id: string; routing: { mode: string } };
    expect(created.routing.mode).toBe('override');
    const stored = await messageById(created.thread_id, created.message_id);
    expect(stored).toMatchObject({ content: streamed, status: 'complete' });
    expect((events.at(-1)?.data as { message: Msg }).message.content).toBe(streamed);
  });

  it('Accept: text/event-stream asks for a stream too', async () => {
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'hi' }), headers: { accept: 'text/event-stream' } });
    const events = (await collectChat(res)).filter((e) => e.event !== 'thread.updated');
    expect(events[0]?.event).toBe('message.created');
    expect(events.at(-1)?.event).toBe('message.completed');
  });

  it('a failure mid-stream ends with an error event, and the partial text is stored with the error', async () => {
    const flaky = await h.addModel('Flaky', 'fail-mid:3');
    const events = await collectChat(await stream({ message: 'go', model_endpoint_override: flaky }));
    const last = events.at(-1);
    expect(last?.event).toBe('error');
    expect(last?.data).toMatchObject({ code: 'upstream_error', message_id: expect.stringMatching(/^msg_/) });
    const streamed = events.filter((e) => e.event === 'delta').map((e) => e.data.content).join('');
    expect(streamed).toBe('w1 w2 w3');
    const created = events[0]?.data as { thread_id: string; message_id: string };
    const stored = await messageById(created.thread_id, created.message_id);
    expect(stored).toMatchObject({ status: 'error', content: 'w1 w2 w3', error: { code: 'upstream_error' } });
  });

  it('non-streaming: a failure mid-answer answers 200 with status error and the partial text', async () => {
    const flaky = await h.addModel('Flaky 2', 'error-mid:2');
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'go', model_endpoint_override: flaky });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ status: 'error', content: 'w1 w2' });
  });

  it('cancel stops the answer and keeps what was produced, marked cancelled', async () => {
    const slow = await h.addModel('Slow cancel', 'slow:150');
    const res = await stream({ message: 'long', model_endpoint_override: slow });
    const seen: Array<{ event?: string; data: string }> = [];
    let messageId = '';
    let threadId = '';
    for await (const e of readSse(res)) {
      seen.push(e);
      if (e.event === 'message.created') ({ message_id: messageId, thread_id: threadId } = JSON.parse(e.data));
      if (seen.filter((s) => s.event === 'delta').length === 2) {
        const cancelled = await h.json<{ message: Msg }>(`/chat/${messageId}/cancel`, 'POST', {});
        expect(cancelled.status).toBe(200);
        expect(cancelled.body.message.status).toBe('cancelled');
      }
    }
    const streamed = seen.filter((e) => e.event === 'delta').map((e) => (JSON.parse(e.data) as { content: string }).content).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan(SLOW_TEXT.length);
    expect(seen.at(-1)?.event).toBe('message.completed');
    const stored = await messageById(threadId, messageId);
    expect(stored).toMatchObject({ status: 'cancelled', content: streamed });
    // Cancelling again changes nothing.
    expect((await h.json<{ message: Msg }>(`/chat/${messageId}/cancel`, 'POST', {})).body.message.status).toBe('cancelled');
  });

  it('text is saved while it streams (at least every 250 ms), not only at the end', async () => {
    const slow = await h.addModel('Slow flush', 'slow:300');
    const res = await stream({ message: 'long', model_endpoint_override: slow });
    let ids: { thread_id: string; message_id: string } | undefined;
    let deltas = 0;
    for await (const e of readSse(res)) {
      if (e.event === 'message.created') ids = JSON.parse(e.data);
      if (e.event === 'delta' && ++deltas === 3) break;
    }
    if (!ids) throw new Error('no message.created');
    const { thread_id, message_id } = ids;
    // Two words were out more than 250 ms ago: they are in the database while the answer still runs.
    const midway = await until(async () => {
      const m = await messageById(thread_id, message_id);
      return m && m.content.startsWith('one two') ? m : undefined;
    }, 'a flush');
    expect(midway.status).toBe('streaming');
    await h.json(`/chat/${message_id}/cancel`, 'POST', {});
  });

  it('a client that goes away stops watching, not the answer: it is finished and stored', async () => {
    const slow = await h.addModel('Slow leave', 'slow:30');
    const abort = new AbortController();
    const res = await stream({ message: 'leave', model_endpoint_override: slow }, abort.signal);
    let ids: { thread_id: string; message_id: string } | undefined;
    try {
      for await (const e of readSse(res)) {
        if (e.event === 'message.created') ids = JSON.parse(e.data);
        if (e.event === 'delta') abort.abort();
      }
    } catch {
      // the aborted body throws: that is the client going away
    }
    if (!ids) throw new Error('no message.created');
    const { thread_id, message_id } = ids;
    const done = await until(async () => {
      const m = await messageById(thread_id, message_id);
      return m?.status === 'complete' ? m : undefined;
    }, 'the answer to finish');
    expect(done.content).toBe(SLOW_TEXT);
  });

  it('re-attaches to a running stream, replaying after Last-Event-ID, and to a finished one from the start', async () => {
    const slow = await h.addModel('Slow attach', 'slow:40');
    const abort = new AbortController();
    const first: Array<{ id: number; event: string; content?: string }> = [];
    let messageId = '';
    try {
      for await (const e of readSse(await stream({ message: 'attach', model_endpoint_override: slow }, abort.signal))) {
        const data = JSON.parse(e.data) as { message_id?: string; content?: string };
        if (e.event === 'message.created') messageId = data.message_id ?? '';
        first.push({ id: Number(e.id), event: e.event ?? '', ...(data.content ? { content: data.content } : {}) });
        if (first.length === 4) abort.abort();
      }
    } catch {
      // client went away
    }
    const lastId = first.at(-1)?.id ?? -1;
    const rest = await collectChat(await h.api(`/chat/${messageId}/stream`, { headers: { 'last-event-id': String(lastId) } }));
    expect(rest[0]?.id).toBe(lastId + 1);
    const text = [...first.map((e) => e.content ?? ''), ...rest.filter((e) => e.event === 'delta').map((e) => String(e.data.content))].join('');
    expect(text).toBe(SLOW_TEXT);
    // The answer's end, then the new thread's title.
    expect(rest.slice(-2).map((e) => e.event)).toEqual(['message.completed', 'thread.updated']);

    const replay = await collectChat(await h.api(`/chat/${messageId}/stream`));
    expect(replay[0]?.event).toBe('message.created');
    expect(replay.filter((e) => e.event === 'delta').map((e) => String(e.data.content)).join('')).toBe(SLOW_TEXT);
  });
});

describe('fail-over', () => {
  let upstream: Upstream;
  afterEach(async () => upstream?.close());

  it('a provider that fails before its first token is skipped, recorded, and the next model answers; a failing model is then taken out of rotation', async () => {
    const local = await startChatHarness();
    upstream = local.upstream;
    try {
      const down = await local.addModel('Down', 'status:503', { capabilities: { quality: 9, strengths: ['general'] } });
      const up = await local.addModel('Up', 'echo', { capabilities: { quality: 5, strengths: ['general'] } });
      const answer = await local.json<{ message: Msg }>('/chat', 'POST', { message: 'hello' });
      expect(answer.body.message).toMatchObject({ status: 'complete', model_id: up, content: 'You said: hello' });
      expect(answer.body.message.routing.skipped.map((s) => s.model_id)).toEqual([down]);
      expect(answer.body.message.routing.reason).toMatch(/Down could not answer, so Up did/);

      // Observed health feeds the router: a model that keeps failing stops being called at all,
      // within `failure_threshold` (3) failures, and every answer still arrives.
      const calls = () => local.upstream.requests.filter((r) => r.model === 'status:503').length;
      for (let i = 0; i < 6; i++) {
        const again = await local.json<{ message: Msg }>('/chat', 'POST', { message: `again ${i}` });
        expect(again.body.message).toMatchObject({ status: 'complete', model_id: up });
      }
      expect(calls()).toBeGreaterThanOrEqual(2);
      expect(calls()).toBeLessThanOrEqual(3);
      const models = await local.json<{ data: Array<{ id: string; status: string }> }>('/models', 'GET');
      expect(models.body.data.find((m) => m.id === down)?.status).not.toBe('available');
    } finally {
      await local.close();
    }
  });

  it('in override mode there is no fail-over: the named model’s failure is the answer', async () => {
    const local = await startChatHarness();
    upstream = local.upstream;
    try {
      const down = await local.addModel('Down', 'status:503');
      await local.addModel('Up', 'echo');
      const answer = await local.json<{ message: Msg }>('/chat', 'POST', { message: 'hello', model_endpoint_override: down });
      expect(answer.body.message).toMatchObject({ status: 'error', model_id: down, content: '' });
      expect(answer.body.message.error?.detail).toMatch(/503/);
    } finally {
      await local.close();
    }
  });
});

describe('restart', () => {
  it('an answer still streaming when Parley stops is kept and marked interrupted at the next start', async () => {
    const upstream = await startUpstream();
    const { dir, remove } = tempDir();
    try {
      const core = bootCore(onTestStorage({ dataDir: dir, appVersion: 't', adminApiKey: TEST_ADMIN_KEY }));
      const server = await startHttpServer(core, { port: 0, appVersion: 't' });
      const auth = { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' };
      const model = (await (
        await fetch(`${server.url}/api/models`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Slow', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:100' }) })
      ).json()) as { id: string };
      const res = await fetch(`${server.url}/api/chat`, { method: 'POST', headers: auth, body: JSON.stringify({ message: 'x', stream: true, model_endpoint_override: model.id }) });
      let ids: { thread_id: string; message_id: string } | undefined;
      let streamed = '';
      let deltas = 0;
      for await (const e of readSse(res)) {
        if (e.event === 'message.created') ids = JSON.parse(e.data);
        if (e.event === 'delta') streamed += (JSON.parse(e.data) as { content: string }).content;
        if (e.event === 'delta' && ++deltas === 2) break;
      }
      await core.close();
      await server.close();

      const again = bootCore(onTestStorage({ dataDir: dir, appVersion: 't' }));
      const row = again.repos.messages.get(ids?.message_id ?? '');
      expect(streamed.length).toBeGreaterThan(0);
      expect(row).toMatchObject({ status: 'interrupted', content: streamed, error_code: 'unavailable' });
      await again.close();
    } finally {
      remove();
      await upstream.close();
    }
  });
});
