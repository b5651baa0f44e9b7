import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';

type Msg = { content: string; status: string; model_id: string; routing: { reason: string; skipped: Array<{ model_id: string; code: string; detail: string }> } };
type Problem = { code: string; errors?: Array<{ path: string; message: string }> };

let h: Harness;
let client: OpenAI;
beforeAll(async () => {
  h = await startChatHarness();
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
});
afterAll(() => h.close());

const lastUpstreamBody = () => h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as Record<string, unknown>;

describe('/v1/chat/completions: sampling', () => {
  it('forwards temperature, top_p, max tokens and stop to an OpenAI-compatible model', async () => {
    const echo = await h.addModel('Sampled', 'echo');
    const answer = await client.chat.completions.create({ model: echo, messages: [{ role: 'user', content: 'hi' }], temperature: 1.3, top_p: 0.8, max_completion_tokens: 64, stop: 'END' });
    expect(answer.choices[0]).toMatchObject({ message: { content: 'You said: hi' }, finish_reason: 'stop' });
    expect(lastUpstreamBody()).toMatchObject({ temperature: 1.3, top_p: 0.8, max_tokens: 64, stop: ['END'] });

    await client.chat.completions.create({ model: echo, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5, stop: ['a', 'b'] });
    const sent = lastUpstreamBody();
    expect(sent).toMatchObject({ max_tokens: 5, stop: ['a', 'b'] });
    // Nothing set: the upstream's own defaults hold.
    expect(sent.temperature).toBeUndefined();
    expect(sent.top_p).toBeUndefined();
  });

  it('reports finish_reason "length" when the upstream says the token limit cut the answer, streamed and not', async () => {
    const cut = await h.addModel('Cut', 'length:cut short');
    const whole = await client.chat.completions.create({ model: cut, messages: [{ role: 'user', content: 'hi' }], max_tokens: 2 });
    expect(whole.choices[0]).toMatchObject({ message: { content: 'cut short' }, finish_reason: 'length' });

    const stream = await client.chat.completions.create({ model: cut, messages: [{ role: 'user', content: 'hi' }], max_tokens: 2, stream: true });
    const reasons: Array<string | null> = [];
    let text = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      reasons.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe('cut short');
    expect(reasons.filter((r) => r !== null)).toEqual(['length']);
  });

  it('refuses out-of-range values with 400 naming the field', async () => {
    const echo = await h.addModel('Ranges', 'echo');
    for (const [field, value] of [['temperature', 2.5], ['top_p', 1.5], ['max_tokens', 0], ['stop', ''], ['stop', Array.from({ length: 17 }, (_, i) => `s${i}`)]] as const) {
      const res = await fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: echo, messages: [{ role: 'user', content: 'hi' }], [field]: value }),
      });
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { error: { code: string; param: string | null; message: string } };
      expect(body.error.code).toBe('invalid_argument');
      expect(body.error.param, `${field}=${JSON.stringify(value)}`).toMatch(new RegExp(`^${field}`));
    }
  });
});

describe('POST /api/chat: sampling', () => {
  it('forwards temperature, top_p, max_tokens and stop to the model', async () => {
    const echo = await h.addModel('Chat sampled', 'echo');
    const res = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'hi', model_endpoint_override: echo, temperature: 0.2, top_p: 0.5, max_tokens: 7, stop: ['###'] });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ status: 'complete', content: 'You said: hi' });
    expect(lastUpstreamBody()).toMatchObject({ temperature: 0.2, top_p: 0.5, max_tokens: 7, stop: ['###'] });
  });

  it('refuses out-of-range values with 400 invalid_argument naming the field', async () => {
    for (const [field, value, message] of [
      ['temperature', -0.1, /between 0 and 2/],
      ['temperature', 3, /between 0 and 2/],
      ['top_p', 2, /between 0 and 1/],
      ['max_tokens', 1.5, /whole number/],
      ['max_tokens', 0, /at least 1/],
      ['stop', [''], /must not be empty/],
    ] as const) {
      const res = await h.json<Problem>('/chat', 'POST', { message: 'hi', [field]: value });
      expect(res.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(res.body.code).toBe('invalid_argument');
      const error = res.body.errors?.find((e) => e.path.startsWith(field));
      expect(error?.message, `${field}=${JSON.stringify(value)}`).toMatch(message);
    }
  });
});

describe('[providers] first_byte_timeout_s', () => {
  let hung: Upstream;
  afterAll(() => hung?.close());

  it('a remote model that accepts and never answers is given up after the deadline, the next candidate answers, and its health records the failure', async () => {
    hung = await startUpstream();
    const hold = hung.hold('/v1/chat/completions');
    const state = (await h.json<{ version: number }>('/admin/config', 'GET')).body;
    // One failure opens the circuit, so the model's health shows it at once.
    const patched = await h.json('/admin/config', 'PATCH', { values: { 'providers.first_byte_timeout_s': 0.2, 'routing.failure_threshold': 1 }, base_version: state.version });
    expect(patched.status).toBe(200);

    const silentRes = await h.json<{ id: string }>('/models', 'POST', {
      name: 'Silent',
      provider: 'openai_compatible',
      endpoint_url: hung.openaiBaseUrl,
      api_key: 'sk-silent',
      model: 'echo',
      capabilities: { quality: 10, strengths: ['general'] },
    });
    const silent = silentRes.body.id;
    const backup = await h.addModel('Backup', 'fixed:Backup answered.', { capabilities: { quality: 9, strengths: ['general'] } });

    const answer = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'are you there?' });
    expect(answer.body.message).toMatchObject({ status: 'complete', model_id: backup, content: 'Backup answered.' });
    expect(answer.body.message.routing.skipped).toEqual([{ model_id: silent, code: 'upstream_error', detail: expect.stringMatching(/sent nothing within 0\.2 s/) }]);
    // It was called, and its request was let go rather than left hanging.
    expect(hung.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    await vi.waitFor(() => expect(hold.held()).toBe(0));

    const models = await h.json<{ data: Array<{ id: string; status: string }> }>('/models', 'GET');
    expect(models.body.data.find((m) => m.id === silent)?.status).toBe('unavailable');
    // Out of rotation: the next answer does not wait on it at all.
    const next = await h.json<{ message: Msg }>('/chat', 'POST', { message: 'again' });
    expect(next.body.message).toMatchObject({ status: 'complete', model_id: backup });
    expect(hung.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
  });
});
