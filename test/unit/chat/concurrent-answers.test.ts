/**
 * Issue 27: one caller cannot flood the server with answers. `[chat] max_concurrent_answers` bounds
 * the answers one user has being written — chats (continue and regenerate too), comparisons (one
 * each) and `/v1` completions or messages — and one more is refused with 429 before anything
 * starts; the slot comes back when the answer ends, however it ends. Answers are held open by the
 * upstream's `hold()`, so nothing here waits on the clock.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Hold } from '../../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../../support/chat.js';
import { TEST_ADMIN_KEY } from '../../support/core.js';
import { person } from '../../support/people.js';

const LIMIT = 2;
const REFUSAL = `You have ${LIMIT} answers being written; wait for one to finish.`;

let h: Harness;
let echo: string;
let other: string;
let ownerId: string;
beforeAll(async () => {
  h = await startChatHarness();
  const { version } = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
  expect((await h.json('/admin/config', 'PATCH', { values: { 'chat.max_concurrent_answers': LIMIT }, base_version: version })).status).toBe(200);
  echo = await h.addModel('Echo', 'echo');
  other = await h.addModel('Other', 'context');
  ownerId = (await h.json<{ user: { id: string } }>('/me', 'GET')).body.user.id;
});
afterAll(() => h.close());

const inUse = () => h.core.runtime.answerSlots.inUse(ownerId);
const auth = (key = TEST_ADMIN_KEY) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/**
 * A thread the user named: its answers are all the model calls there are (a thread Parley named
 * gets a title call after its first answer, which a hold here would catch too).
 */
async function namedThread(key = TEST_ADMIN_KEY): Promise<string> {
  const res = await fetch(`${h.url}/api/threads`, { method: 'POST', headers: auth(key), body: JSON.stringify({ title: 'Held' }) });
  return ((await res.json()) as { id: string }).id;
}

/** A streamed chat, left open: answers its message id once the stream says it was created. */
async function openChat(body: Record<string, unknown> = {}, key = TEST_ADMIN_KEY): Promise<{ status: number; messageId: string; abort: () => void }> {
  const abort = new AbortController();
  // `thread_id` given (undefined: a new thread), else a thread of its own the user named.
  const thread_id = 'thread_id' in body ? body.thread_id : await namedThread(key);
  const res = await fetch(`${h.url}/api/chat`, { method: 'POST', headers: auth(key), body: JSON.stringify({ message: 'Hold on.', stream: true, model_endpoint_override: echo, thread_id, ...body }), signal: abort.signal });
  if (res.status !== 200) return { status: res.status, messageId: '', abort: () => abort.abort() };
  const reader = res.body!.getReader();
  let text = '';
  const decoder = new TextDecoder();
  while (!/"message_id":"(msg_\w+)"/.test(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  return { status: 200, messageId: /"message_id":"(msg_\w+)"/.exec(text)?.[1] ?? '', abort: () => abort.abort() };
}

/** Holds every upstream chat request from now on; resolves once `n` are waiting. */
function holdChats(): Hold {
  return h.upstream.hold('/v1/chat/completions', 0);
}

describe('[chat] max_concurrent_answers', () => {
  it('refuses one answer more with 429 rate_limited, before anything starts, on every route that writes one', async () => {
    const done = await h.json<{ message: { id: string; status: string } }>('/chat', 'POST', { message: 'First.', model_endpoint_override: echo, thread_id: await namedThread() });
    expect(done.body.message.status).toBe('complete');
    const failing = await h.addModel('Refuses', 'status:503');
    const failed = await h.json<{ message: { id: string; status: string } }>('/chat', 'POST', { message: 'Second.', model_endpoint_override: failing });
    expect(failed.body.message.status).toBe('error');
    // A failed answer gave its slot back, as a complete one did.
    expect(inUse()).toBe(0);

    const hold = holdChats();
    const open = [await openChat(), await openChat()];
    await vi.waitFor(() => expect(hold.held()).toBe(LIMIT));
    expect(inUse()).toBe(LIMIT);
    const threadsBefore = (await h.json<{ data: unknown[] }>('/threads', 'GET')).body.data.length;

    const chat = await h.json<{ code: string; detail: string }>('/chat', 'POST', { message: 'One more?', model_endpoint_override: echo });
    expect(chat.status).toBe(429);
    expect(chat.body).toMatchObject({ code: 'rate_limited', detail: REFUSAL });
    const streamed = await openChat({ thread_id: undefined });
    expect(streamed.status).toBe(429);
    // Refused before a thread was made for it or a question stored.
    expect((await h.json<{ data: unknown[] }>('/threads', 'GET')).body.data.length).toBe(threadsBefore);

    const comparison = await h.json<{ code: string; detail: string }>('/comparisons', 'POST', { prompt: 'Which?', model_ids: [echo, other] });
    expect(comparison.status).toBe(429);
    expect(comparison.body.detail).toBe(REFUSAL);

    const completion = await fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: auth(), body: JSON.stringify({ model: echo, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(completion.status).toBe(429);
    expect(((await completion.json()) as { error: { message: string } }).error.message).toBe(REFUSAL);

    const messages = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_ADMIN_KEY, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: echo, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(messages.status).toBe(429);
    expect(((await messages.json()) as { error: { message: string } }).error.message).toBe(REFUSAL);

    // Nothing refused reached the model.
    expect(hold.held()).toBe(LIMIT);

    // Regenerate and continue are answers too.
    const regenerate = await h.json<{ code: string; detail: string }>(`/chat/${done.body.message.id}/regenerate`, 'POST', {});
    expect(regenerate).toMatchObject({ status: 429, body: { code: 'rate_limited', detail: REFUSAL } });
    const continued = await h.json<{ code: string; detail: string }>(`/chat/${failed.body.message.id}/continue`, 'POST', { model_endpoint_override: echo });
    expect(continued).toMatchObject({ status: 429, body: { code: 'rate_limited', detail: REFUSAL } });

    // The answers end (complete): their slots come back, and the next answer is written.
    hold.release();
    // Each stream read to its end: the answer is stored.
    for (const o of open) await (await h.api(`/chat/${o.messageId}/stream`)).text();
    await vi.waitFor(() => expect(inUse()).toBe(0));
    const after = await h.json<{ message: { status: string } }>('/chat', 'POST', { message: 'Now?', model_endpoint_override: echo, thread_id: await namedThread() });
    expect(after.status).toBe(200);
    expect(after.body.message.status).toBe('complete');
    expect(inUse()).toBe(0);
  });

  it('is per user: another user’s answers are not refused for the first one’s', async () => {
    const hold = holdChats();
    const open = [await openChat(), await openChat()];
    await vi.waitFor(() => expect(hold.held()).toBe(LIMIT));
    const member = await person(h.api, 'member');
    const theirs = await openChat({}, member.key);
    expect(theirs.status).toBe(200);
    await vi.waitFor(() => expect(hold.held()).toBe(LIMIT + 1));
    hold.release();
    for (const o of [...open, theirs]) o.abort();
    await vi.waitFor(() => expect(inUse()).toBe(0));
  });

  it('a cancelled answer gives its slot back', async () => {
    const hold = holdChats();
    const open = [await openChat(), await openChat()];
    await vi.waitFor(() => expect(hold.held()).toBe(LIMIT));
    expect((await openChat()).status).toBe(429);
    expect((await h.json(`/chat/${open[0]!.messageId}/cancel`, 'POST', {})).status).toBe(200);
    expect(inUse()).toBe(LIMIT - 1);
    const next = await openChat();
    expect(next.status).toBe(200);
    hold.release();
    for (const o of [...open, next]) o.abort();
    await vi.waitFor(() => expect(inUse()).toBe(0));
  });

  it('a comparison holds one slot, whatever its models', async () => {
    const hold = holdChats();
    const comparison = fetch(`${h.url}/api/comparisons`, { method: 'POST', headers: auth(), body: JSON.stringify({ prompt: 'Which?', model_ids: [echo, other] }) });
    await vi.waitFor(() => expect(hold.held()).toBe(2));
    expect(inUse()).toBe(1);
    const chat = await openChat();
    expect(chat.status).toBe(200);
    expect(inUse()).toBe(LIMIT);
    expect((await openChat()).status).toBe(429);
    hold.release();
    expect((await comparison).status).toBe(201);
    chat.abort();
    await vi.waitFor(() => expect(inUse()).toBe(0));
  });

  it('a /v1 stream whose client goes gives its slot back', async () => {
    const hold = holdChats();
    const abort = new AbortController();
    const streaming = fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: auth(), body: JSON.stringify({ model: echo, stream: true, messages: [{ role: 'user', content: 'hi' }] }), signal: abort.signal })
      .then((res) => res.body?.getReader().read())
      .catch(() => {});
    await vi.waitFor(() => expect(hold.held()).toBe(1));
    expect(inUse()).toBe(1);
    abort.abort();
    await streaming;
    await vi.waitFor(() => expect(inUse()).toBe(0));
    hold.release();
  });

  // Last: what the app does to running answers when it quits.
  it('answers stopped by shutdown (stored as interrupted) give their slots back', async () => {
    const hold = holdChats();
    const open = [await openChat(), await openChat()];
    await vi.waitFor(() => expect(hold.held()).toBe(LIMIT));
    expect(inUse()).toBe(LIMIT);
    await h.core.runtime.hub.shutdown();
    await vi.waitFor(() => expect(inUse()).toBe(0));
    expect(h.core.repos.messages.get(open[0]!.messageId)?.status).toBe('interrupted');
    hold.release();
  });
});
