import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTINUE_PROMPT } from '../../main/core/conversation/chat/send.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { collectChat } from '../support/sse.js';

type Msg = { id: string; parent_id: string | null; role: string; content: string; status: string; model_id: string | null; routing?: unknown; error: { code: string } | null };
interface ChatAnswer {
  thread_id: string;
  user_message_id: string;
  message: Msg;
}

let h: Harness;
let echo: string;
let context: string;
beforeAll(async () => {
  h = await startChatHarness();
  echo = await h.addModel('Echo', 'echo');
  context = await h.addModel('Context', 'context');
});
afterAll(() => h.close());

const chat = (body: Record<string, unknown>) => h.json<ChatAnswer>('/chat', 'POST', body);
const messagesOf = async (threadId: string) => (await h.json<{ data: Msg[] }>(`/threads/${threadId}/messages`, 'GET')).body.data;

describe('regenerate: POST /chat/{answer}/regenerate', () => {
  it('answers the same question again as a new answer, by another model; the old answer is kept and the new one sees only what came before', async () => {
    const first = await chat({ message: 'first question', model_endpoint_override: echo });
    const second = await chat({ thread_id: first.body.thread_id, message: 'second question', model_endpoint_override: echo });

    const again = await h.json<ChatAnswer>(`/chat/${second.body.message.id}/regenerate`, 'POST', { model_endpoint_override: context });
    expect(again.status).toBe(200);
    expect(again.body.user_message_id).toBe(second.body.user_message_id);
    expect(again.body.message).toMatchObject({ model_id: context, status: 'complete', parent_id: second.body.user_message_id });
    // The old answer to the second question is not part of what the model sees.
    expect(again.body.message.content).toBe('3 messages: user: first question, assistant: You said: first question, user: second question');

    const messages = await messagesOf(first.body.thread_id);
    expect(messages.map((m) => m.content)).toEqual([
      'first question',
      'You said: first question',
      'second question',
      'You said: second question',
      again.body.message.content,
    ]);
  });

  it('a later message continues from the newest answer, not the one it replaced', async () => {
    const first = await chat({ message: 'alpha', model_endpoint_override: echo });
    const again = await h.json<ChatAnswer>(`/chat/${first.body.message.id}/regenerate`, 'POST', { model_endpoint_override: context });
    const next = await chat({ thread_id: first.body.thread_id, message: 'beta', model_endpoint_override: context });
    expect(next.body.message.content).toBe(`3 messages: user: alpha, assistant: ${again.body.message.content.slice(0, 30)}, user: beta`);
  });

  it('streams like POST /chat', async () => {
    const first = await chat({ message: 'gamma', model_endpoint_override: echo });
    const res = await h.api(`/chat/${first.body.message.id}/regenerate`, { method: 'POST', body: JSON.stringify({ stream: true, model_endpoint_override: echo }) });
    const events = await collectChat(res);
    expect(events[0]).toMatchObject({ event: 'message.created', data: { user_message_id: first.body.user_message_id } });
    expect(events.at(-1)).toMatchObject({ event: 'message.completed', data: { message: { content: 'You said: gamma' } } });
  });

  it('refuses a user message, another user’s answer, an unknown id and bad input with clear codes', async () => {
    const first = await chat({ message: 'delta', model_endpoint_override: echo });
    const onUser = await h.json<{ code: string }>(`/chat/${first.body.user_message_id}/regenerate`, 'POST', {});
    expect(onUser).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
    const unknown = await h.json<{ code: string }>('/chat/msg_nope/regenerate', 'POST', {});
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const bad = await h.json<{ code: string }>(`/chat/${first.body.message.id}/regenerate`, 'POST', { model_endpoint_override: 'gpt-4' });
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
  });
});

describe('edit: POST /chat/{question}/edit', () => {
  it('sends the new text as a branch from where the old question stood; the old question and answer are kept', async () => {
    const first = await chat({ message: 'one', model_endpoint_override: echo });
    const second = await chat({ thread_id: first.body.thread_id, message: 'two, with a typo', model_endpoint_override: echo });
    const edited = await h.json<ChatAnswer>(`/chat/${second.body.user_message_id}/edit`, 'POST', { message: 'two, fixed', model_endpoint_override: context });
    expect(edited.status).toBe(200);
    expect(edited.body.user_message_id).not.toBe(second.body.user_message_id);
    expect(edited.body.message.content).toBe('3 messages: user: one, assistant: You said: one, user: two, fixed');

    const messages = await messagesOf(first.body.thread_id);
    expect(messages.map((m) => m.content)).toEqual(['one', 'You said: one', 'two, with a typo', 'You said: two, with a typo', 'two, fixed', edited.body.message.content]);
    const newQuestion = messages[4];
    expect(newQuestion).toMatchObject({ role: 'user', parent_id: first.body.message.id });
  });

  it('the first message of a thread can be edited too, and an answer cannot be', async () => {
    const first = await chat({ message: 'draft', model_endpoint_override: echo });
    const edited = await h.json<ChatAnswer>(`/chat/${first.body.user_message_id}/edit`, 'POST', { message: 'final', model_endpoint_override: context });
    expect(edited.body.message.content).toBe('1 messages: user: final');
    const onAnswer = await h.json<{ code: string }>(`/chat/${first.body.message.id}/edit`, 'POST', { message: 'x' });
    expect(onAnswer).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
    const empty = await h.json<{ code: string }>(`/chat/${first.body.user_message_id}/edit`, 'POST', { message: '' });
    expect(empty).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
  });
});

describe('continue: POST /chat/{answer}/continue', () => {
  it('an answer cut off by an error goes on in place: its kept text first, then the model’s continuation, which was asked to continue', async () => {
    const failing = await h.addModel('Failing', 'fail-mid:3');
    const cut = await chat({ message: 'count for me', model_endpoint_override: failing });
    expect(cut.body.message).toMatchObject({ status: 'error', content: 'w1 w2 w3' });

    const res = await h.api(`/chat/${cut.body.message.id}/continue`, { method: 'POST', body: JSON.stringify({ stream: true, model_endpoint_override: context }) });
    const events = await collectChat(res);
    expect(events[0]).toMatchObject({ event: 'message.created', data: { message_id: cut.body.message.id, user_message_id: cut.body.user_message_id } });
    // The stream rebuilds the whole message: the kept text comes first.
    expect(events[1]).toMatchObject({ event: 'delta', data: { content: 'w1 w2 w3' } });
    // The thread's first complete answer: the thread's new title follows its end.
    expect(events.at(-1)?.event).toBe('thread.updated');
    const done = events.at(-2) as unknown as { event: string; data: { message: Msg } };
    expect(done.event).toBe('message.completed');
    expect(done.data.message).toMatchObject({ id: cut.body.message.id, status: 'complete', error: null, model_id: context });
    // The model saw the question, its own partial answer, and the request to go on.
    expect(done.data.message.content).toBe(`w1 w2 w33 messages: user: count for me, assistant: w1 w2 w3, user: ${CONTINUE_PROMPT.slice(0, 30)}`);

    const messages = await messagesOf(cut.body.thread_id);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ id: cut.body.message.id, content: done.data.message.content, status: 'complete' });
  });

  it('without a model named, the model that wrote the answer goes on, its routing kept; once it is removed, a routed one goes on and both are named', async () => {
    const failing = await h.addModel('Cutting', 'fail-mid:2');
    const cut = await chat({ message: 'count on', model_endpoint_override: failing });
    expect(cut.body.message).toMatchObject({ status: 'error', content: 'w1 w2', model_id: failing });

    // The router would rank the model that just failed last; the writer goes on all the same.
    const going = await h.json<ChatAnswer>(`/chat/${cut.body.message.id}/continue`, 'POST', {});
    expect(going.status).toBe(200);
    expect(going.body.message).toMatchObject({ model_id: failing, content: 'w1 w2w1 w2', status: 'error', routing: cut.body.message.routing });

    expect((await h.api(`/models/${failing}`, { method: 'DELETE' })).status).toBeLessThan(300);
    const after = await h.json<ChatAnswer & { message: { routing: { mode: string; reason: string; skipped: { model_id: string }[] } } }>(`/chat/${cut.body.message.id}/continue`, 'POST', {});
    expect(after.status).toBe(200);
    expect(after.body.message.content.startsWith('w1 w2w1 w2')).toBe(true);
    expect(after.body.message.model_id).not.toBe(failing);
    expect(after.body.message.routing).toMatchObject({ mode: 'dynamic', skipped: [{ model_id: failing }] });
    expect(after.body.message.routing.reason).toContain(`The model that wrote the start of this answer (${failing}) is no longer available`);
  });

  it('a stopped answer can be continued without streaming; a complete one cannot (409)', async () => {
    const slow = await h.addModel('Slow', 'slow:200');
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'count', stream: true, model_endpoint_override: slow }) });
    const reader = res.body?.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('event: delta')) text += (await reader?.read())?.value ?? '';
    const messageId = /"message_id":"(msg_[A-Za-z0-9]+)"/.exec(text)?.[1] ?? '';
    const cancelled = await h.json<{ message: Msg }>(`/chat/${messageId}/cancel`, 'POST');
    expect(cancelled.body.message.status).toBe('cancelled');
    await reader?.cancel();

    const going = await h.json<ChatAnswer>(`/chat/${messageId}/continue`, 'POST', { model_endpoint_override: echo });
    expect(going.status).toBe(200);
    expect(going.body.message.status).toBe('complete');
    expect(going.body.message.content.startsWith(cancelled.body.message.content)).toBe(true);
    expect(going.body.message.content.endsWith(`You said: ${CONTINUE_PROMPT}`)).toBe(true);

    const again = await h.json<{ code: string }>(`/chat/${messageId}/continue`, 'POST', {});
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });
});
