import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';

type Msg = { id: string; parent_id: string | null; role: string; content: string };
type ChatAnswer = { thread_id: string; user_message_id: string; message: Msg };

let h: Harness;
let echo: string;
let context: string;
beforeAll(async () => {
  h = await startChatHarness();
  echo = await h.addModel('Echo', 'echo');
  context = await h.addModel('Context', 'context');
});
afterAll(() => h.close());

const chat = (body: Record<string, unknown>) => h.json<ChatAnswer & { code?: string }>('/chat', 'POST', body);

describe('POST /chat with parent_id: going on from the branch on screen', () => {
  it('follows the message named, so the model sees that branch and not the newest one', async () => {
    const first = await chat({ message: 'alpha', model_endpoint_override: echo });
    const older = first.body.message;
    // A regenerated answer is now the thread's newest message…
    const again = await h.json<ChatAnswer>(`/chat/${older.id}/regenerate`, 'POST', { model_endpoint_override: echo });
    expect(again.status).toBe(200);
    // …but the reader switched back to the first answer and goes on from there.
    const next = await chat({ thread_id: first.body.thread_id, parent_id: older.id, message: 'beta', model_endpoint_override: context });
    expect(next.status).toBe(200);
    const question = (await h.json<{ data: Msg[] }>(`/threads/${first.body.thread_id}/messages`, 'GET')).body.data.find((m) => m.id === next.body.user_message_id);
    expect(question?.parent_id).toBe(older.id);
    expect(next.body.message.content).toBe('3 messages: user: alpha, assistant: You said: alpha, user: beta');
  });

  it('without parent_id a message still follows the newest', async () => {
    const first = await chat({ message: 'gamma', model_endpoint_override: echo });
    const again = await h.json<ChatAnswer>(`/chat/${first.body.message.id}/regenerate`, 'POST', { model_endpoint_override: echo });
    const next = await chat({ thread_id: first.body.thread_id, message: 'delta', model_endpoint_override: echo });
    const messages = (await h.json<{ data: Msg[] }>(`/threads/${first.body.thread_id}/messages`, 'GET')).body.data;
    expect(messages.find((m) => m.id === next.body.user_message_id)?.parent_id).toBe(again.body.message.id);
  });

  it('refuses a parent from another thread, or without a thread, as not found, storing nothing', async () => {
    const one = await chat({ message: 'one', model_endpoint_override: echo });
    const two = await chat({ message: 'two', model_endpoint_override: echo });
    const wrong = await chat({ thread_id: two.body.thread_id, parent_id: one.body.message.id, message: 'lost?', model_endpoint_override: echo });
    expect(wrong.status).toBe(404);
    expect(wrong.body.code).toBe('not_found');
    const noThread = await chat({ parent_id: one.body.message.id, message: 'lost?', model_endpoint_override: echo });
    expect(noThread.status).toBe(404);
    const messages = (await h.json<{ data: Msg[] }>(`/threads/${two.body.thread_id}/messages`, 'GET')).body.data;
    expect(messages.map((m) => m.content)).toEqual(['two', 'You said: two']);
  });
});
