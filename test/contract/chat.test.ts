import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NO_DATASET_ANSWER } from '../../main/core/models/providers/extractive.js';
import { TITLE_INSTRUCTION } from '../../main/core/conversation/chat/thread-title.js';
import { startUpstream } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { collectChat, readSse } from '../support/sse.js';

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

  it('answers with the thread’s own instructions, temperature and max length; a request’s own sampling wins; null clears them', async () => {
    const echo = await h.addModel('Echo settings', 'echo');
    const created = await h.json<{ id: string; temperature: number | null; max_tokens: number | null }>('/threads', 'POST', { title: 'Tuned' });
    expect(created.body).toMatchObject({ temperature: null, max_tokens: null });
    const id = created.body.id;
    const patched = await h.json('/threads/' + id, 'PATCH', { system_prompt: 'Answer in French.', temperature: 0.3, max_tokens: 77 });
    expect(patched.body).toMatchObject({ system_prompt: 'Answer in French.', temperature: 0.3, max_tokens: 77 });
    expect((await h.json('/threads/' + id, 'GET')).body).toMatchObject({ system_prompt: 'Answer in French.', temperature: 0.3, max_tokens: 77 });
    const sent = async (body: Record<string, unknown>) => {
      const seen = h.upstream.requests.length;
      expect((await chat({ thread_id: id, model_endpoint_override: echo, ...body })).status).toBe(200);
      const call = h.upstream.requests.slice(seen).find((r) => r.model === 'echo' && r.path.endsWith('/chat/completions'));
      return call?.body as { messages: Array<{ role: string; content: unknown }>; temperature?: number; max_tokens?: number };
    };
    const first = await sent({ message: 'bonjour?' });
    expect(first.messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });
    expect(first).toMatchObject({ temperature: 0.3, max_tokens: 77 });
    expect(await sent({ message: 'again', temperature: 1.5, max_tokens: 20 })).toMatchObject({ temperature: 1.5, max_tokens: 20 });
    await h.json('/threads/' + id, 'PATCH', { system_prompt: null, temperature: null, max_tokens: null });
    const cleared = await sent({ message: 'plain' });
    expect(cleared.temperature).toBeUndefined();
    expect(cleared.max_tokens).not.toBe(77);
    expect(cleared.messages.some((m) => m.role === 'system' && m.content === 'Answer in French.')).toBe(false);
  });

  it('refuses out-of-range thread settings with 400 naming each field', async () => {
    const thread = await h.json<{ id: string }>('/threads', 'POST', { title: 'Bad settings' });
    const res = await h.json<{ code: string; errors: Array<{ path: string }> }>('/threads/' + thread.body.id, 'PATCH', { temperature: 2.5, max_tokens: 0 });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e) => e.path).sort()).toEqual(['max_tokens', 'temperature']);
    const create = await h.json<{ errors: Array<{ path: string }> }>('/threads', 'POST', { temperature: -1, max_tokens: 1.5, system_prompt: 'x'.repeat(20_001) });
    expect(create.status).toBe(400);
    expect(create.body.errors.map((e) => e.path).sort()).toEqual(['max_tokens', 'system_prompt', 'temperature']);
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

  it('are searched by message text too: title or any message, own threads only, words in any script, typed text never FTS5 syntax', async () => {
    type Found = { data: Array<{ id: string; match?: { message_id: string; snippet: string } }> };
    const search = async (q: string, token?: string) => {
      const res = await h.json<Found>(`/threads?limit=200&q=${encodeURIComponent(q)}`, 'GET', undefined, token);
      expect(res.status, q).toBe(200);
      return res.body.data;
    };
    const fixed = await h.addModel('Handbook', 'fixed:Remote staff get an equipment allowance; 设备补贴 is paid once a year. Das Gerät bleibt Eigentum.');
    const byTitle = await h.json<{ id: string }>('/threads', 'POST', { title: 'Quokka field notes' });
    const byAnswer = await h.json<{ id: string }>('/threads', 'POST', { title: 'Questions' });
    const answered = await chat({ thread_id: byAnswer.body.id, message: 'What do remote workers get?', model_endpoint_override: fixed });
    expect(answered.body.message.status).toBe('complete');
    // Another user says the same words in a thread of theirs.
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'searcher@example.com', name: 'Searcher' });
    const key = member.body.api_key.key;
    const theirs = await h.json<{ id: string }>('/threads', 'POST', { title: 'Theirs' }, key);
    await chat({ thread_id: theirs.body.id, message: 'quokka allowance 设备补贴' }, key);

    const byWord = await search('allowance');
    expect(byWord.map((t) => t.id)).toEqual([byAnswer.body.id]);
    expect(byWord[0]!.match).toEqual({ message_id: answered.body.message.id, snippet: expect.stringContaining('equipment allowance') });
    // The last word typed is a prefix; every word must occur somewhere in one message.
    expect((await search('equipment allow')).map((t) => t.id)).toEqual([byAnswer.body.id]);
    expect(await search('equipment quokka')).toEqual([]);
    // Words inside a sentence in a script written without spaces, and without their diacritics.
    expect((await search('设备补贴')).map((t) => t.id)).toEqual([byAnswer.body.id]);
    expect((await search('补贴')).map((t) => t.id)).toEqual([byAnswer.body.id]);
    expect((await search('gerat')).map((t) => t.id)).toEqual([byAnswer.body.id]);
    // A title match carries no message match.
    expect(await search('quokka')).toEqual([expect.objectContaining({ id: byTitle.body.id })]);
    expect((await search('quokka'))[0]).not.toHaveProperty('match');
    // Their search finds their thread by its message, never mine.
    expect((await search('allowance', key)).map((t) => t.id)).toEqual([theirs.body.id]);

    // Typed text is words only: quotes, operators and column filters match as the words they hold.
    for (const hostile of ['"allowance', 'allowance"', 'allowance*', '-allowance', 'equipment:allowance', '^allowance', '(allowance', 'equipment + allowance']) {
      expect((await search(hostile)).map((t) => t.id), hostile).toEqual([byAnswer.body.id]);
    }
    for (const odd of ['"', '*', ')(', 'AND', 'NOT', '-', '{}', "'", 'NEAR(allowance equipment, 2)', 'allowance OR']) await search(odd);
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

describe('thread titles', () => {
  const QUESTION = 'How much is the equipment allowance for remote staff?';
  const streamed = async (path: string, body: Record<string, unknown>) => collectChat(await h.api(path, { method: 'POST', body: JSON.stringify({ ...body, stream: true }) }));
  const titleOf = async (id: string) => (await h.json<{ title: string }>(`/threads/${id}`, 'GET')).body.title;
  const created = (events: Array<{ data: Record<string, unknown> }>) => events[0]?.data as { thread_id: string; message_id: string };
  const isTitleCall = (body: unknown) => (body as { messages?: Array<{ content: unknown }> }).messages?.[0]?.content === TITLE_INSTRUCTION;

  it('after the first answer, the model that answered names the thread: after message.completed, counted, and never again', async () => {
    const namer = await h.addModel('Namer', 'fixed:"Remote work equipment."');
    const seen = h.upstream.requests.length;
    const events = await streamed('/chat', { message: QUESTION, model_endpoint_override: namer });
    expect(events.map((e) => e.event).slice(-2)).toEqual(['message.completed', 'thread.updated']);
    const { thread_id, message_id } = created(events);
    expect(events.at(-1)?.data).toEqual({ thread_id, title: 'Remote work equipment' });
    expect(await titleOf(thread_id)).toBe('Remote work equipment');
    // One call for the answer, then one short call with the instruction, to the same model.
    const calls = h.upstream.requests.slice(seen).filter((r) => r.model === 'fixed:"Remote work equipment."');
    expect(calls.map((r) => [r.model, isTitleCall(r.body)])).toEqual([
      ['fixed:"Remote work equipment."', false],
      ['fixed:"Remote work equipment."', true],
    ]);
    expect((calls[1]?.body as { max_tokens?: number }).max_tokens).toBeLessThanOrEqual(32);
    const usage = h.core.db.prepare('SELECT model_id, source FROM usage_events WHERE message_id = ?').all(message_id);
    expect(usage).toEqual([
      { model_id: namer, source: 'chat' },
      { model_id: namer, source: 'chat' },
    ]);

    // A later answer, a regenerated first answer: no title call, no new title.
    const later = await streamed('/chat', { thread_id, message: 'And for part-time staff?', model_endpoint_override: namer });
    const again = await streamed(`/chat/${message_id}/regenerate`, { model_endpoint_override: namer });
    expect([...later, ...again].some((e) => e.event === 'thread.updated')).toBe(false);
    expect(h.upstream.requests.slice(seen).filter((r) => r.model === 'fixed:"Remote work equipment."' && isTitleCall(r.body))).toHaveLength(1);
    expect(await titleOf(thread_id)).toBe('Remote work equipment');
  });

  it('a thread the user named keeps its name: created with a title, or renamed before its first answer completed', async () => {
    const namer = await h.addModel('Namer 2', 'fixed:Some other title');
    const failing = await h.addModel('Down', 'status:503');
    const seen = h.upstream.requests.length;
    const named = await h.json<{ id: string }>('/threads', 'POST', { title: 'My allowance questions' });
    const inNamed = await streamed('/chat', { thread_id: named.body.id, message: QUESTION, model_endpoint_override: namer });
    expect(inNamed.some((e) => e.event === 'thread.updated')).toBe(false);
    expect(await titleOf(named.body.id)).toBe('My allowance questions');

    const failed = await streamed('/chat', { message: QUESTION, model_endpoint_override: failing });
    const { thread_id, message_id } = created(failed);
    expect((await h.json(`/threads/${thread_id}`, 'PATCH', { title: 'Renamed by me' })).status).toBe(200);
    const retried = await streamed(`/chat/${message_id}/regenerate`, { model_endpoint_override: namer });
    expect(retried.some((e) => e.event === 'message.completed')).toBe(true);
    expect(retried.some((e) => e.event === 'thread.updated')).toBe(false);
    expect(await titleOf(thread_id)).toBe('Renamed by me');
    expect(h.upstream.requests.slice(seen).filter((r) => r.model === 'fixed:Some other title' && isTitleCall(r.body))).toEqual([]);
  });

  it('offline, the built-in model’s thread is named from the question’s key phrase, with no model call', async () => {
    const seen = h.upstream.requests.length;
    const events = await streamed('/chat', { message: QUESTION, model_endpoint_override: 'mdl_extractive' });
    expect(events.at(-1)).toMatchObject({ event: 'thread.updated', data: { title: 'Equipment allowance for remote staff' } });
    expect(await titleOf(created(events).thread_id)).toBe('Equipment allowance for remote staff');
    expect(h.upstream.requests.slice(seen).filter((r) => JSON.stringify(r.body).includes('remote staff'))).toEqual([]);
  });

  it('a title call that fails leaves the title as it was and the answer as it was', async () => {
    const other = await startUpstream();
    try {
      const model = (await h.json<{ id: string }>('/models', 'POST', { name: 'Elsewhere', provider: 'openai_compatible', endpoint_url: other.openaiBaseUrl, api_key: 'sk-elsewhere', model: 'echo' })).body.id;
      // The answer's call goes through; the title's is held, then its connection cut.
      const hold = other.hold('/v1/chat/completions', 1);
      const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: QUESTION, model_endpoint_override: model, stream: true }) });
      const events: string[] = [];
      let threadId = '';
      let completed: { content: string; status: string } | null = null;
      for await (const event of readSse(res)) {
        events.push(event.event ?? '');
        if (event.event === 'message.created') threadId = (JSON.parse(event.data) as { thread_id: string }).thread_id;
        if (event.event === 'message.completed') {
          completed = (JSON.parse(event.data) as { message: { content: string; status: string } }).message;
          await vi.waitFor(() => expect(hold.held()).toBe(1));
          await other.close();
        }
      }
      expect(completed).toMatchObject({ status: 'complete', content: `You said: ${QUESTION}` });
      expect(events.at(-1)).toBe('message.completed');
      expect(await titleOf(threadId)).toBe(QUESTION);
    } finally {
      await other.close();
    }
  });
});
