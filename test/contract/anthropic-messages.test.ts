/**
 * `POST /v1/messages`, Anthropic's Messages API, driven by the official `@anthropic-ai/sdk` as a
 * Claude-compatible client uses it: against remote models on the deterministic upstream (which
 * Parley calls in the OpenAI shape) and a local GGUF model, plain and streamed, with a tool round
 * trip, and every failure in Anthropic's error shape with Parley's stable code.
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_ANSWER, makeGguf } from '../fixtures/gguf.js';
import { wordCount } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { secondOrganization, trial } from '../support/people.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { readSse } from '../support/sse.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-messages-'));
let h: Harness;
let client: Anthropic;

beforeAll(async () => {
  // A local GGUF model in the data directory, served on one thread (see local-models.test.ts).
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'tiny-chat.gguf'), makeGguf({ name: 'Messages Tiny', contextLength: 1024 }));
  writeFileSync(join(dataDir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  h = await startChatHarness({ dataDir });
  client = new Anthropic({ baseURL: h.url, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upstreamBodies = () => h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { messages: Array<Record<string, unknown>>; tools?: unknown; tool_choice?: unknown; max_tokens?: number });
const raw = (body: unknown, headers: Record<string, string> = { 'x-api-key': TEST_ADMIN_KEY }) =>
  fetch(`${h.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
type ErrorBody = { type: string; error: { type: string; message: string; code: string } };

const SEARCH_TOOL = { name: 'search', description: 'Searches the notes.', input_schema: { type: 'object' as const, properties: { query: { type: 'string' } }, required: ['query'] } };

describe('POST /v1/messages with the Anthropic SDK', { timeout: 60_000 }, () => {
  it('answers a system prompt and a text message, with the message object and its usage', async () => {
    const context = await h.addModel('Context', 'context');
    const message = await client.messages.create({ model: context, max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] });
    const text = '2 messages: system: Be brief., user: Hello there';
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: context, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null });
    expect(message.id).toMatch(/^msg_/);
    expect(message.usage).toMatchObject({ input_tokens: wordCount('Be brief. Hello there'), output_tokens: wordCount(text) });
    // The system prompt reached the model as the conversation's first message; max_tokens went along.
    expect(upstreamBodies().at(-1)).toMatchObject({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello there' }], max_tokens: 100 });

    // System as text blocks, content as blocks, and a multi-turn history.
    const again = await client.messages.create({
      model: context,
      max_tokens: 100,
      system: [{ type: 'text', text: 'Rule one.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'First' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Reply' }] },
        { role: 'user', content: [{ type: 'text', text: 'Second' }] },
      ],
    });
    expect(again.content).toEqual([{ type: 'text', text: '4 messages: system: Rule one., user: First, assistant: Reply, user: Second', citations: null }]);
  });

  it('passes image blocks (base64 and URL) on to the model as images', async () => {
    const echo = await h.addModel('Vision', 'echo', { capabilities: { quality: 6, strengths: ['general'], vision: true } });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const message = await client.messages.create({
      model: echo,
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
            { type: 'text', text: 'What is this?' },
          ],
        },
      ],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'You said: What is this?', citations: null }]);
    const parts = upstreamBodies().at(-1)?.messages.at(-1)?.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(parts.filter((p) => p.type === 'image_url').map((p) => p.image_url?.url)).toEqual([`data:image/png;base64,${png}`, 'https://example.com/cat.png']);
  });

  it('streams text events in Anthropic order, and finalMessage() has the whole answer and usage', async () => {
    const fixed = await h.addModel('Fixed', 'fixed:one two three four');
    const stream = client.messages.stream({ model: fixed, max_tokens: 50, messages: [{ role: 'user', content: 'count' }] });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('one two three four');
    expect(final).toMatchObject({ content: [{ type: 'text', text: 'one two three four' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 4 } });

    // The wire order, ping included (the SDK hides it), with the key as `x-api-key`.
    const res = await raw({ model: fixed, max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'count' }] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events: Array<{ event: string | undefined; data: { type: string } }> = [];
    for await (const e of readSse(res)) events.push({ event: e.event, data: JSON.parse(e.data) as { type: string } });
    const names = events.map((e) => e.event);
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(new Set(names.slice(3, -3))).toEqual(new Set(['content_block_delta']));
    // Each event's data names its own type, as the SDK expects.
    for (const e of events) expect(e.data.type).toBe(e.event);
  });

  it('round-trips a tool: tool_use with parsed input, then tool_result → the final text (plain and streamed)', async () => {
    const tool = await h.addModel('Tooling', 'tool');
    const question = 'lighthouse keeper';
    const first = await client.messages.create({ model: tool, max_tokens: 200, tools: [SEARCH_TOOL], messages: [{ role: 'user', content: question }] });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b) => b.type === 'tool_use');
    expect(use).toMatchObject({ type: 'tool_use', name: 'search', input: { query: question } });
    // The upstream was offered the tool in its own (OpenAI) shape.
    expect(upstreamBodies().at(-1)?.tools).toEqual([{ type: 'function', function: { name: 'search', description: 'Searches the notes.', parameters: SEARCH_TOOL.input_schema } }]);

    const id = use?.type === 'tool_use' ? use.id : '';
    const second = await client.messages.create({
      model: tool,
      max_tokens: 200,
      tools: [SEARCH_TOOL],
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'The keeper lights it at dusk.' }] },
      ],
    });
    expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: 'Tool said: The keeper lights it at dusk.' }] });
    // The history reached the upstream as an assistant tool call answered by a tool message.
    const sent = upstreamBodies().at(-1)?.messages ?? [];
    expect(sent.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id, type: 'function', function: { name: 'search', arguments: JSON.stringify({ query: question }) } }] });
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: id, content: 'The keeper lights it at dusk.' });

    // Streamed: the call arrives as a tool_use block whose JSON the SDK assembles.
    const stream = client.messages.stream({ model: tool, max_tokens: 200, tools: [SEARCH_TOOL], tool_choice: { type: 'any' }, messages: [{ role: 'user', content: question }] });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'search', input: { query: question } }]);
    expect(upstreamBodies().at(-1)?.tool_choice).toBe('required');
  });

  it('round-trips a tool with a remote Anthropic model behind Parley', async () => {
    const res = await h.json<{ id: string }>('/models', 'POST', { name: 'Claude behind', provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'ak-1', model: 'tool' });
    expect(res.status).toBe(201);
    const claude = res.body.id;
    const first = await client.messages.stream({ model: claude, max_tokens: 200, tools: [SEARCH_TOOL], messages: [{ role: 'user', content: 'orchard' }] }).finalMessage();
    expect(first).toMatchObject({ stop_reason: 'tool_use', content: [{ type: 'tool_use', name: 'search', input: { query: 'orchard' } }] });
    const use = first.content[0];
    const second = await client.messages.create({
      model: claude,
      max_tokens: 200,
      tools: [SEARCH_TOOL],
      messages: [
        { role: 'user', content: 'orchard' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use?.type === 'tool_use' ? use.id : '', content: [{ type: 'text', text: 'Pruned in winter.' }] }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'Tool said: Pruned in winter.', citations: null }]);
    expect(h.upstream.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).toMatchObject({ model: 'tool', tools: [{ name: 'search', input_schema: SEARCH_TOOL.input_schema }] });
  });

  it('names the stop sequence that ended a remote Anthropic model’s answer, plain and streamed', async () => {
    const res = await h.json<{ id: string }>('/models', 'POST', { name: 'Claude stops', provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'ak-2', model: 'fixed:one two END three' });
    expect(res.status).toBe(201);
    const request = { model: res.body.id, max_tokens: 50, stop_sequences: ['never', 'END'], messages: [{ role: 'user' as const, content: 'count' }] };
    const whole = await client.messages.create(request);
    expect(whole).toMatchObject({ content: [{ type: 'text', text: 'one two ' }], stop_reason: 'stop_sequence', stop_sequence: 'END' });
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed).toMatchObject({ content: [{ type: 'text', text: 'one two ' }], stop_reason: 'stop_sequence', stop_sequence: 'END' });
    expect(h.upstream.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body).toMatchObject({ stop_sequences: ['never', 'END'] });
  });

  it('says max_tokens when the token limit cut the answer, plain and streamed', async () => {
    const cut = await h.addModel('Cut', 'length:cut short');
    const whole = await client.messages.create({ model: cut, max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] });
    expect(whole).toMatchObject({ content: [{ type: 'text', text: 'cut short' }], stop_reason: 'max_tokens' });
    const final = await client.messages.stream({ model: cut, max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    expect(final).toMatchObject({ content: [{ type: 'text', text: 'cut short' }], stop_reason: 'max_tokens' });
    expect(upstreamBodies().at(-1)?.max_tokens).toBe(2);
  });

  it('answers with a local GGUF model, plain and streamed', async () => {
    const listed = (await h.json<{ data: Array<{ id: string; name: string }> }>('/models', 'GET')).body.data;
    const local = listed.find((m) => m.name === 'Messages Tiny');
    expect(local).toBeDefined();
    const message = await client.messages.create({ model: local?.id ?? '', max_tokens: 64, messages: [{ role: 'user', content: 'abc' }] });
    expect(message).toMatchObject({ model: local?.id, content: [{ type: 'text', text: CHAT_ANSWER }], stop_reason: 'end_turn' });
    // The byte tokenizer: one token per letter, plus the end-of-turn token.
    expect(message.usage.output_tokens).toBe(CHAT_ANSWER.length + 1);
    const deltas: string[] = [];
    const stream = client.messages.stream({ model: local?.id ?? '', max_tokens: 64, messages: [{ role: 'user', content: 'abc' }] });
    stream.on('text', (delta) => deltas.push(delta));
    expect((await stream.finalMessage()).content).toEqual([{ type: 'text', text: CHAT_ANSWER, citations: null }]);
    expect(deltas.length).toBeGreaterThan(1);
  });
});

describe('POST /v1/messages: errors in Anthropic’s shape', () => {
  it('a bad key is 401 authentication_error, whether sent as x-api-key or Bearer', async () => {
    const bad = new Anthropic({ baseURL: h.url, apiKey: 'pk_NotAKey0000000000000000000000', maxRetries: 0 });
    const error = await bad.messages.create({ model: 'auto', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((error as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({ type: 'error', error: { type: 'authentication_error', code: 'unauthenticated' } });

    for (const headers of [{ 'x-api-key': 'pk_NotAKey0000000000000000000000' }, {}] as Array<Record<string, string>>) {
      const res = await raw({ model: 'auto', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }, headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({ type: 'authentication_error', code: 'unauthenticated' });
    }
  });

  it('counts against a trial quota like /v1/chat/completions (usage recorded, then 429 rate_limit_error) and keeps to the caller’s organization', async () => {
    const echo = await h.addModel('Quota', 'fixed:counted');
    const t = await trial(h.api, { quota: 1 });
    const asTrial = new Anthropic({ baseURL: h.url, apiKey: t.key, maxRetries: 0 });
    expect((await asTrial.messages.create({ model: echo, max_tokens: 10, messages: [{ role: 'user', content: 'one' }] })).content).toEqual([{ type: 'text', text: 'counted', citations: null }]);
    expect(h.core.repos.usage.listByUser(t.id)).toEqual([expect.objectContaining({ model_id: echo, source: 'openai', input_tokens: 1, output_tokens: 1 })]);
    const calls = h.upstream.requests.length;
    const refused = await asTrial.messages.create({ model: echo, max_tokens: 10, messages: [{ role: 'user', content: 'two' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.RateLimitError);
    expect((refused as InstanceType<typeof Anthropic.RateLimitError>).error).toMatchObject({ error: { type: 'rate_limit_error', code: 'rate_limited' } });
    expect(h.upstream.requests.length).toBe(calls);

    // Another organization does not see this one's models.
    const other = new Anthropic({ baseURL: h.url, apiKey: secondOrganization(h.core).key, maxRetries: 0 });
    const hidden = await other.messages.create({ model: echo, max_tokens: 10, messages: [{ role: 'user', content: 'three' }] }).catch((e: unknown) => e);
    expect(hidden).toBeInstanceOf(Anthropic.NotFoundError);
    expect(h.upstream.requests.length).toBe(calls);
  });

  it('an unknown model is 404 not_found_error', async () => {
    const error = await client.messages.create({ model: 'mdl_nope', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({ error: { type: 'not_found_error', code: 'not_found', message: expect.stringMatching(/mdl_nope/) } });
  });

  it('a malformed body is 400 invalid_request_error naming the field', async () => {
    const echo = await h.addModel('Strict', 'echo');
    const cases: Array<[unknown, RegExp]> = [
      [{ model: echo, messages: [{ role: 'user', content: 'hi' }] }, /^max_tokens/],
      [{ model: echo, max_tokens: 10, messages: [] }, /^messages/],
      [{ model: echo, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }, /^messages\.0\.content/],
      [{ model: echo, max_tokens: 10, temperature: 1.5, messages: [{ role: 'user', content: 'hi' }] }, /^temperature: must be between 0 and 1/],
      [{ model: echo, max_tokens: 10, tool_choice: { type: 'sometimes' }, messages: [{ role: 'user', content: 'hi' }] }, /^tool_choice/],
      ['{"model": ', /JSON/i],
    ];
    const calls = () => h.upstream.requests.filter((r) => r.model === 'echo').length;
    const before = calls();
    for (const [body, message] of cases) {
      const res = await raw(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const payload = (await res.json()) as ErrorBody;
      expect(payload.type).toBe('error');
      expect(payload.error.type).toBe('invalid_request_error');
      expect(payload.error.code).toBe('invalid_argument');
      expect(payload.error.message, JSON.stringify(body)).toMatch(message);
    }
    // No model was called for any of them.
    expect(calls()).toBe(before);
  });

  it('an upstream 503 is 502 api_error (upstream_error), plain and streamed; a failure mid-stream is an error event', async () => {
    const down = await h.addModel('Down', 'status:503');
    const plain = await client.messages.create({ model: down, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Anthropic.APIError);
    expect((plain as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
    expect((plain as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { type: 'api_error', code: 'upstream_error' } });
    const streamed = await client.messages.stream({ model: down, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage().catch((e: unknown) => e);
    expect((streamed as InstanceType<typeof Anthropic.APIError>).status).toBe(502);

    const broken = await h.addModel('Broken', 'error-mid:3');
    const res = await raw({ model: broken, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    const events: Array<{ event: string | undefined; data: Record<string, unknown> }> = [];
    for await (const e of readSse(res)) events.push({ event: e.event, data: JSON.parse(e.data) as Record<string, unknown> });
    const text = events.flatMap((e) => (e.event === 'content_block_delta' ? [(e.data.delta as { text: string }).text] : [])).join('');
    expect(text).toBe('w1 w2 w3');
    expect(events.at(-1)).toEqual({ event: 'error', data: { type: 'error', error: { type: 'api_error', code: 'upstream_error', message: expect.any(String) } } });
    expect(events.map((e) => e.event)).not.toContain('message_stop');
  });
});
