import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_DATASET_ANSWER } from '../../main/core/models/providers/extractive.js';
import { startChatHarness, type Harness } from '../support/chat.js';

interface ChatAnswer {
  thread_id: string;
  user_message_id: string;
  message: {
    id: string;
    content: string;
    status: string;
    model_id: string;
    routing: { mode: string; model_id: string; reason: string };
    usage: { input_tokens: number; output_tokens: number } | null;
    first_token_ms: number | null;
    latency_ms: number | null;
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const chat = (body: Record<string, unknown>, token?: string) => h.json<ChatAnswer>('/chat', 'POST', body, token);

describe('POST /api/chat', () => {
  it('with no third-party model, dynamic routing picks the built-in model, which says it has no dataset to draw on', async () => {
    const { status, body } = await chat({ message: 'What is in my notes?' });
    expect(status).toBe(200);
    expect(body.message).toMatchObject({ status: 'complete', model_id: 'mdl_extractive', content: NO_DATASET_ANSWER });
    expect(body.message.routing).toMatchObject({ mode: 'dynamic', model_id: 'mdl_extractive' });
    expect(body.message.routing.reason).toMatch(/Extractive/);
  });

  it('dynamic mode routes to a healthy generative model and says why; an override turns routing off', async () => {
    const echo = await h.addModel('Echo', 'echo');
    const fixed = await h.addModel('Fixed', 'fixed:Always this.', { capabilities: { quality: 3, strengths: ['general'] } });

    const auto = await chat({ message: 'hello there' });
    expect(auto.body.message).toMatchObject({ model_id: echo, content: 'You said: hello there' });
    expect(auto.body.message.routing.mode).toBe('dynamic');
    expect(auto.body.message.routing.reason).toContain('Echo');

    const chosen = await chat({ message: 'hello again', model_endpoint_override: fixed });
    expect(chosen.body.message).toMatchObject({ model_id: fixed, content: 'Always this.' });
    expect(chosen.body.message.routing).toMatchObject({ mode: 'override', model_id: fixed });
  });

  it('one thread is continued by two different models, each reading the whole context and recorded on its message', async () => {
    const echo = await h.addModel('Echo 2', 'echo');
    const context = await h.addModel('Context', 'context');
    const first = await chat({ message: 'first question', model_endpoint_override: echo });
    const second = await chat({ thread_id: first.body.thread_id, message: 'second question', model_endpoint_override: context });
    expect(second.body.thread_id).toBe(first.body.thread_id);
    expect(second.body.message.content).toBe('3 messages: user: first question, assistant: You said: first question, user: second question');

    const { body } = await h.json<{ data: Array<{ role: string; model_id: string | null; content: string }> }>(`/threads/${first.body.thread_id}/messages`, 'GET');
    expect(body.data.map((m) => [m.role, m.model_id])).toEqual([
      ['user', null],
      ['assistant', echo],
      ['user', null],
      ['assistant', context],
    ]);
  });

  it('keeps the thread’s system prompt first in the context', async () => {
    const context = await h.addModel('Context 2', 'context');
    const thread = await h.json<{ id: string }>('/threads', 'POST', { title: 'Prompted', system_prompt: 'You are terse.' });
    const answer = await chat({ thread_id: thread.body.id, message: 'hi', model_endpoint_override: context });
    expect(answer.body.message.content).toBe('2 messages: system: You are terse., user: hi');
  });

  it('records usage from the provider on the message', async () => {
    const counted = await h.addModel('Counted', 'usage:17:5');
    const answer = await chat({ message: 'count me', model_endpoint_override: counted });
    expect(answer.body.message.usage).toEqual({ input_tokens: 17, output_tokens: 5 });
  });

  it('a finished answer carries its tokens, time to first token and total time, also when read back', async () => {
    // The upstream holds its first token 150 ms, then sends ten words at once: the wait is the fixture's, not a timer here.
    const held = await h.addModel('Held', 'slow-first:150');
    const answer = await chat({ message: 'time me', model_endpoint_override: held });
    const { message } = answer.body;
    expect(message.status).toBe('complete');
    expect(message.usage?.output_tokens).toBe(10);
    expect(message.first_token_ms).toBeGreaterThanOrEqual(150);
    expect(message.latency_ms).toBeGreaterThanOrEqual(message.first_token_ms ?? Infinity);
    const { body } = await h.json<{ data: ChatAnswer['message'][] }>(`/threads/${answer.body.thread_id}/messages`, 'GET');
    const stored = body.data.find((m) => m.id === message.id);
    expect(stored).toMatchObject({ usage: message.usage, first_token_ms: message.first_token_ms, latency_ms: message.latency_ms });
    // A question has no timing of its own.
    expect(body.data.find((m) => m.id === answer.body.user_message_id)).toMatchObject({ first_token_ms: null, latency_ms: null });
  });

  it('names a missing thread or model with 404 and refuses another user’s thread', async () => {
    expect((await chat({ thread_id: 'thr_doesnotexist', message: 'x' })).status).toBe(404);
    expect((await chat({ message: 'x', model_endpoint_override: 'mdl_doesnotexist' })).status).toBe(404);
    expect((await chat({ message: 'x', model_endpoint_override: 'ovr_doesnotexist' })).status).toBe(404);
    const mine = await chat({ message: 'private' });
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'other@example.com', name: 'Other' });
    const theirs = await chat({ thread_id: mine.body.thread_id, message: 'peek' }, member.body.api_key.key);
    expect(theirs.status).toBe(404);
    expect((await h.json(`/threads/${mine.body.thread_id}/messages`, 'GET', undefined, member.body.api_key.key)).status).toBe(404);
  });

  it('refuses empty or blank messages with 400 naming the field', async () => {
    for (const message of ['', '   \n']) {
      const res = await h.json<{ code: string; errors: Array<{ path: string }> }>('/chat', 'POST', { message });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]?.path).toBe('message');
    }
  });

  it('/api/chat/api is gone: any method → 410 endpoint_removed naming /chat', async () => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
      const res = await h.api('/chat/api', { method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }) });
      expect(res.status).toBe(410);
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('endpoint_removed');
      expect(body.detail).toContain('/api/chat');
    }
  });
});

describe('threads', () => {
  it('are created, renamed, listed newest first, searched and deleted with their messages', async () => {
    const a = await h.json<{ id: string; title: string }>('/threads', 'POST', { title: 'Alpha plans' });
    const b = await h.json<{ id: string }>('/threads', 'POST', { title: 'Beta notes' });
    expect(a.status).toBe(201);
    const renamed = await h.json<{ title: string }>(`/threads/${a.body.id}`, 'PATCH', { title: 'Alpha roadmap' });
    expect(renamed.body.title).toBe('Alpha roadmap');

    const list = await h.json<{ data: Array<{ id: string }> }>('/threads?limit=200', 'GET');
    const ids = list.body.data.map((t) => t.id);
    expect(ids.indexOf(b.body.id)).toBeLessThan(ids.indexOf(a.body.id));
    const found = await h.json<{ data: Array<{ id: string }> }>('/threads?q=roadmap', 'GET');
    expect(found.body.data.map((t) => t.id)).toEqual([a.body.id]);

    await chat({ thread_id: a.body.id, message: 'hello' });
    expect((await h.json(`/threads/${a.body.id}`, 'DELETE')).status).toBe(204);
    expect((await h.json(`/threads/${a.body.id}`, 'GET')).status).toBe(404);
    expect((await h.json(`/threads/${a.body.id}/messages`, 'GET')).status).toBe(404);
  });

  it('page by cursor without skipping or repeating while threads are inserted', async () => {
    for (let i = 0; i < 5; i++) await h.json('/threads', 'POST', { title: `Paged ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/threads?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await h.json<{ data: Array<{ id: string; title: string }>; next_cursor: string | null }>(query, 'GET');
      seen.push(...page.body.data.map((t) => t.id));
      // A thread created mid-way belongs before the first page: it must not appear in later pages.
      await h.json('/threads', 'POST', { title: 'Inserted meanwhile' });
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await h.json<{ data: Array<{ id: string; title: string }> }>('/threads?limit=200', 'GET');
    const before = all.body.data.filter((t) => t.title !== 'Inserted meanwhile').map((t) => t.id);
    expect(seen).toEqual(before);
    expect((await h.json('/threads?cursor=bogus', 'GET')).status).toBe(400);
  });

  it('suggestions are disabled: 204 with no body, whatever the thread says', async () => {
    const t = await h.json<{ id: string; suggestions_enabled: boolean }>('/threads', 'POST', { suggestions_enabled: true });
    expect(t.body.suggestions_enabled).toBe(true);
    const res = await h.api(`/threads/${t.body.id}/suggestions`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const fresh = await h.json<{ suggestions_enabled: boolean }>('/threads', 'POST', {});
    expect(fresh.body.suggestions_enabled).toBe(false);
  });
});
