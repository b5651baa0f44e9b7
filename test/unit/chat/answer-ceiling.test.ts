/**
 * Issue 27, item 4: an upstream that streams without end (and ignores `max_tokens`) must cost one
 * bounded answer: every request carries `max_tokens`, the text stops at the byte ceiling, is kept,
 * and the answer ends as `answer_too_long`; the model is not ranked up for it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { answerByteCap } from '../../../main/core/answering/streamed-answer.js';
import { startChatHarness, type Harness } from '../../support/chat.js';
import { TEST_ADMIN_KEY } from '../../support/core.js';

interface ChatAnswer {
  thread_id: string;
  message: { id: string; content: string; status: string; error: { code: string; detail: string } | null };
}

const MAX_TOKENS = 64;
const CAP = answerByteCap(MAX_TOKENS);

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
  const { version } = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
  const saved = await h.json('/admin/config', 'PATCH', { values: { 'chat.max_answer_tokens': MAX_TOKENS }, base_version: version });
  expect(saved.status).toBe(200);
});
afterAll(() => h.close());

const sentBodies = () => h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);

describe('an answer’s ceiling', () => {
  it('stops an endless upstream at the byte cap: the text so far is kept and the answer ends as answer_too_long', async () => {
    const endless = await h.addModel('Runaway', 'endless');
    const res = await h.json<ChatAnswer>('/chat', 'POST', { message: 'Tell me everything.', model_endpoint_override: endless });
    expect(res.status).toBe(200);
    const { message } = res.body;
    expect(message.status).toBe('error');
    expect(message.error?.code).toBe('answer_too_long');
    expect(message.error?.detail).toMatch(/ceiling of \d+ bytes/);
    // Kept up to the cap: all of it, and nothing past it.
    expect(Buffer.byteLength(message.content)).toBe(CAP);
    expect(message.content.startsWith('w1 w2 w3')).toBe(true);
    // What is stored is what was answered (appended while streaming, then the end).
    const stored = h.core.repos.messages.get(message.id);
    expect(stored?.content).toBe(message.content);
    // The request asked for the ceiling, and it was ended rather than left streaming.
    expect(sentBodies().at(-1)?.max_tokens).toBe(MAX_TOKENS);
    await vi.waitFor(() => expect(h.upstream.active()).toBe(0));
    // Fast first token and no exception: without the cap counted as a failure the router would favour it.
    expect(h.core.runtime.health.health(endless).error_rate).toBeGreaterThan(0);
  });

  it('sends the caller’s max_tokens when smaller, the ceiling when larger or unset', async () => {
    const echo = await h.addModel('Echo ceiling', 'echo');
    for (const [asked, sent] of [
      [10, 10],
      [5_000, MAX_TOKENS],
      [undefined, MAX_TOKENS],
    ] as const) {
      const res = await h.json<ChatAnswer>('/chat', 'POST', { message: 'hi', model_endpoint_override: echo, ...(asked === undefined ? {} : { max_tokens: asked }) });
      expect(res.body.message.status).toBe('complete');
      expect(sentBodies().at(-1)?.max_tokens, `asked ${asked}`).toBe(sent);
    }
  });

  it('bounds /v1 completions too: max_tokens always sent, an endless upstream cut at the byte cap with finish_reason "length"', async () => {
    const endless = await h.addModel('Runaway v1', 'endless');
    const res = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: endless, messages: [{ role: 'user', content: 'Tell me everything.' }], max_tokens: 5_000 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
    expect(body.choices[0]?.finish_reason).toBe('length');
    expect(Buffer.byteLength(body.choices[0]?.message.content ?? '')).toBe(CAP);
    expect(sentBodies().at(-1)?.max_tokens).toBe(MAX_TOKENS);
    await vi.waitFor(() => expect(h.upstream.active()).toBe(0));
  });
});
