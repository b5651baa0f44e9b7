/**
 * `/v1/chat/completions` as clients use it beyond text: tools (plain and streamed, with
 * `finish_reason: "tool_calls"`), structured output, sampling fields, images, and clear refusals —
 * through the official `openai` SDK, the Vercel AI SDK and LangChain's ChatOpenAI, over the
 * deterministic upstream and over a generated GGUF on the real llama.cpp path.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { Ajv } from 'ajv';
import { z } from 'zod';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { tool as lcTool } from '@langchain/core/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { makeGguf } from '../fixtures/gguf.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-v1-tools-'));
let h: Harness;
let client: OpenAI;

beforeAll(async () => {
  // One thread: on a 2-core machine llama.cpp's own default is far slower per token.
  writeFileSync(join(dataDir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'tools-chat.gguf'), makeGguf({ name: 'Tools Chat', contextLength: 2048 }));
  writeFileSync(join(dataDir, 'models', 'tools-embed.gguf'), makeGguf({ name: 'Tools Embed', kind: 'embedding' }));
  h = await startChatHarness({ dataDir });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
});
afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const upstreamBodies = () => h.upstream.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as Record<string, unknown>);
const localId = async (name: string) => {
  const { body } = await h.json<{ data: Array<{ id: string; name: string }> }>('/models', 'GET');
  const found = body.data.find((m) => m.name === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found.id;
};
const post = (body: unknown) =>
  fetch(`${h.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
type OpenAiError = { error: { message: string; type: string; param: string | null; code: string } };

const SEARCH: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'search', description: 'Searches the web.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
};

describe('tools through the openai SDK', () => {
  it('round trip, not streamed: the call comes back with finish_reason "tool_calls", its result goes back and is used', async () => {
    const model = await h.addModel('Tool caller', 'tool');
    const first = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'weather in Paris' }], tools: [SEARCH], tool_choice: 'required', parallel_tool_calls: false });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    const call = choice.message.tool_calls?.[0];
    expect(call).toMatchObject({ type: 'function', id: expect.any(String), function: { name: 'search' } });
    if (call?.type !== 'function') throw new Error('no function call');
    expect(JSON.parse(call.function.arguments)).toEqual({ query: 'weather in Paris' });
    // The tools reached the upstream in OpenAI's shape, with the choice and the parallel flag.
    expect(upstreamBodies().at(-1)).toMatchObject({ tools: [{ type: 'function', function: { name: 'search' } }], tool_choice: 'required', parallel_tool_calls: false });

    const second = await client.chat.completions.create({
      model,
      tools: [SEARCH],
      messages: [{ role: 'user', content: 'weather in Paris' }, choice.message, { role: 'tool', tool_call_id: call.id, content: 'sunny, 21 °C' }],
    });
    expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Tool said: sunny, 21 °C' } });
    // The history went up with the assistant's call and the tool's result, ids intact.
    const sent = upstreamBodies().at(-1)!.messages as Array<Record<string, unknown>>;
    expect(sent.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ id: call.id, function: { name: 'search' } }] });
    expect(sent.at(-1)).toMatchObject({ role: 'tool', tool_call_id: call.id, content: 'sunny, 21 °C' });
  });

  it('streamed: delta.tool_calls pieces with index, id, name and arguments, the last chunk finishing "tool_calls"', async () => {
    const model = await h.addModel('Stream caller', 'tool-call:lookup:{"city":"Oslo","days":3}');
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } } }];
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'forecast' }], tools, stream: true });
    const calls: Array<{ id: string; name: string; arguments: string }> = [];
    const reasons: string[] = [];
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.finish_reason) reasons.push(choice.finish_reason);
      for (const piece of choice?.delta.tool_calls ?? []) {
        const call = (calls[piece.index] ??= { id: '', name: '', arguments: '' });
        call.id += piece.id ?? '';
        call.name += piece.function?.name ?? '';
        call.arguments += piece.function?.arguments ?? '';
      }
    }
    expect(calls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'lookup', arguments: '{"city":"Oslo","days":3}' }]);
    expect(reasons).toEqual(['tool_calls']);

    // The SDK's own stream helper assembles the same message.
    const helper = client.chat.completions.stream({ model, messages: [{ role: 'user', content: 'forecast' }], tools });
    const done = await helper.finalChatCompletion();
    expect(done.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ function: { name: 'lookup', arguments: '{"city":"Oslo","days":3}' } }] } });
  });
});

describe('structured output and sampling through the openai SDK', () => {
  it('forwards response_format json_schema and the answer parses and validates', async () => {
    const model = await h.addModel('Json writer', 'fixed:{"city":"Paris","temp":21}');
    const schema = { type: 'object', properties: { city: { type: 'string' }, temp: { type: 'number' } }, required: ['city', 'temp'], additionalProperties: false };
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'weather?' }],
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } },
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'user-42',
    });
    const parsed: unknown = JSON.parse(answer.choices[0]!.message.content ?? '');
    expect(new Ajv().validate(schema, parsed)).toBe(true);
    expect(upstreamBodies().at(-1)).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema, strict: true } },
      seed: 7,
      presence_penalty: 0.5,
      frequency_penalty: -0.5,
      user: 'user-42',
    });
  });

  it('forwards image_url parts to an OpenAI-compatible model as parts', async () => {
    const model = await h.addModel('Vision', 'echo', { capabilities: { quality: 6, strengths: ['general'], vision: true } });
    const url = 'data:image/png;base64,iVBORw0KGgo=';
    const answer = await client.chat.completions.create({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url } }] }] });
    expect(answer.choices[0]?.message.content).toBe('You said: what is this');
    expect((upstreamBodies().at(-1)!.messages as unknown[]).at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url } }] });
  });

  it('images go by the "Reads images" mark as on POST /chat: an unmarked remote model is a 400 naming messages, and "auto" routes among marked models only', async () => {
    const content = [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }];
    // Rated high so that, were the mark ignored, the router would pick it.
    const plain = await h.addModel('Plain eyes', 'fixed:plain', { capabilities: { quality: 10, strengths: ['general'] } });
    const before = upstreamBodies().length;
    const refused = await post({ model: plain, messages: [{ role: 'user', content }] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as OpenAiError).error).toMatchObject({ code: 'invalid_argument', param: 'messages', message: expect.stringContaining('Plain eyes cannot read images') });
    expect(upstreamBodies().length).toBe(before);

    const seer = await h.addModel('Seer', 'echo', { capabilities: { quality: 6, strengths: ['general'], vision: true } });
    const { body } = await h.json<{ data: Array<{ id: string; capabilities: { vision: boolean } }> }>('/models', 'GET');
    const marked = body.data.filter((m) => m.capabilities.vision).map((m) => m.id);
    expect(marked).toContain(seer);
    expect(marked).not.toContain(plain);
    const routed = await client.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: content as OpenAI.Chat.Completions.ChatCompletionContentPart[] }] });
    expect(routed.choices[0]?.message.content).toBe('You said: what is this');
    expect(marked).toContain(routed.model);
  });
});

describe('an Anthropic model behind /v1', () => {
  it('maps tools ("required" → any), images and response_format onto the Messages API, and the call comes back in OpenAI’s shape', async () => {
    const model = await h.addModel('Claude tools', 'tool', { provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'sk-ant-test', capabilities: { quality: 6, strengths: ['general'], vision: true } });
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'weather in Paris' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }],
      tools: [SEARCH],
      tool_choice: 'required',
      response_format: { type: 'json_object' },
    });
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { content: null, tool_calls: [{ type: 'function', function: { name: 'search', arguments: '{"query":"weather in Paris"}' } }] } });
    const sent = h.upstream.requests.filter((r) => r.path === '/v1/messages').at(-1)!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ tool_choice: { type: 'any' }, tools: [{ name: 'search', input_schema: { type: 'object' } }], system: expect.stringMatching(/^Be brief\.\n\n.*JSON object/s) });
    expect((sent.messages as Array<{ content: unknown }>)[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
      { type: 'text', text: 'weather in Paris' },
    ]);
  });
});

describe('the Vercel AI SDK (ai@6, @ai-sdk/openai-compatible@2)', () => {
  const parley = () => createOpenAICompatible({ name: 'parley', baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY });
  const weather = (ran: string[]) =>
    tool({
      description: 'Searches the web.',
      inputSchema: z.object({ query: z.string() }),
      execute: async ({ query }) => {
        ran.push(query);
        return `sunny in ${query}`;
      },
    });

  it('generateText runs its tool in a stopWhen loop and answers with the tool result', async () => {
    const model = await h.addModel('AI SDK loop', 'tool');
    const ran: string[] = [];
    const result = await generateText({ model: parley()(model), tools: { search: weather(ran) }, stopWhen: stepCountIs(3), prompt: 'Paris' });
    expect(ran).toEqual(['Paris']);
    expect(result.steps[0]?.finishReason).toBe('tool-calls');
    expect(result.text).toContain('sunny in Paris');
    expect(result.finishReason).toBe('stop');
  });

  it('streamText streams the same loop', async () => {
    const model = await h.addModel('AI SDK stream', 'tool');
    const ran: string[] = [];
    const result = streamText({ model: parley()(model), tools: { search: weather(ran) }, stopWhen: stepCountIs(3), prompt: 'Rome' });
    let text = '';
    for await (const piece of result.textStream) text += piece;
    expect(ran).toEqual(['Rome']);
    expect(text).toContain('sunny in Rome');
  });
});

describe("LangChain's ChatOpenAI", () => {
  it('invokes, and with bindTools gets a tool call back', async () => {
    const echo = await h.addModel('LC echo', 'echo');
    const llm = new ChatOpenAI({ model: echo, apiKey: TEST_ADMIN_KEY, configuration: { baseURL: `${h.url}/v1` }, maxRetries: 0 });
    expect((await llm.invoke('hello there')).content).toBe('You said: hello there');

    const caller = await h.addModel('LC tools', 'tool');
    const search = lcTool(async ({ query }: { query: string }) => `found ${query}`, { name: 'search', description: 'Searches the web.', schema: z.object({ query: z.string() }) });
    const withTools = new ChatOpenAI({ model: caller, apiKey: TEST_ADMIN_KEY, configuration: { baseURL: `${h.url}/v1` }, maxRetries: 0 }).bindTools([search]);
    const message = await withTools.invoke('lamps at dusk');
    expect(message.tool_calls).toEqual([expect.objectContaining({ name: 'search', args: { query: 'lamps at dusk' } })]);
    expect(message.response_metadata.finish_reason).toBe('tool_calls');
  });
});

describe('a local GGUF model', { timeout: 120_000 }, () => {
  const lookup = {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 12 }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] }, days: { type: 'boolean' } },
    required: ['city', 'unit', 'days'],
  };

  it('calls a named tool with arguments that validate against its schema (grammar-constrained)', async () => {
    const model = await localId('Tools Chat');
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'weather in Oslo' }],
      tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks up the weather.', parameters: lookup } }, SEARCH],
      tool_choice: { type: 'function', function: { name: 'lookup' } },
      temperature: 0,
    });
    const choice = answer.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const call = choice.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`no call: ${JSON.stringify(choice)}`);
    expect(call.function.name).toBe('lookup');
    const ajv = new Ajv();
    expect(ajv.validate(lookup, JSON.parse(call.function.arguments)), ajv.errorsText()).toBe(true);
  });

  it('with tool_choice "required" and several tools, calls one of them with valid arguments', async () => {
    const model = await localId('Tools Chat');
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'weather in Oslo' }],
      tools: [{ type: 'function', function: { name: 'lookup', description: 'Looks up the weather.', parameters: lookup } }, SEARCH],
      tool_choice: 'required',
      temperature: 0,
    });
    const call = answer.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`no call: ${JSON.stringify(answer.choices[0])}`);
    expect(['lookup', 'search']).toContain(call.function.name);
    const schema = call.function.name === 'lookup' ? lookup : SEARCH.type === 'function' ? SEARCH.function.parameters : {};
    expect(new Ajv().validate(schema ?? {}, JSON.parse(call.function.arguments))).toBe(true);
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('holds a json_schema response_format with a grammar: the answer parses and validates', async () => {
    const model = await localId('Tools Chat');
    const schema = { type: 'object', properties: { answer: { type: 'string', maxLength: 10 }, sure: { type: 'boolean' } }, required: ['answer', 'sure'] };
    const answer = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'abc' }],
      response_format: { type: 'json_schema', json_schema: { name: 'reply', schema } },
      temperature: 0,
      max_tokens: 200,
    });
    const text = answer.choices[0]?.message.content ?? '';
    // Without the grammar this model writes its alphabet, which is no JSON.
    const ajv = new Ajv();
    expect(ajv.validate(schema, JSON.parse(text)), `${text}: ${ajv.errorsText()}`).toBe(true);
  });

  it('refuses an image with 400 naming messages', async () => {
    const model = await localId('Tools Chat');
    const res = await post({ model, messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as OpenAiError;
    expect(body.error).toMatchObject({ code: 'invalid_argument', type: 'invalid_request_error', param: 'messages', message: expect.stringMatching(/cannot read images/) });
  });

  it('an embedding model on chat is a 400 in OpenAI’s shape, not a 500', async () => {
    const model = await localId('Tools Embed');
    const res = await post({ model, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as OpenAiError;
    expect(body.error).toMatchObject({ code: 'invalid_argument', type: 'invalid_request_error', param: 'model', message: expect.stringMatching(/embedding model/) });
  });
});

describe('refusals and upstream failures', () => {
  it('n > 1 is a 400 naming n', async () => {
    const model = await h.addModel('Only one', 'echo');
    const res = await post({ model, n: 2, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAiError).error).toMatchObject({ code: 'invalid_argument', param: 'n' });
  });

  it('an image for the built-in extractive model is a 400 naming messages', async () => {
    const res = await post({ model: 'mdl_extractive', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as OpenAiError).error).toMatchObject({ code: 'invalid_argument', param: 'messages' });
  });

  it('an upstream that answers 503, refuses the key or drops the connection is 502 upstream_error (not streamed), with a redacted reason', async () => {
    const down = await h.addModel('Down', 'status:503');
    const badKey = await h.addModel('Bad key', 'echo', { api_key: 'bad-key' });
    const dropped = await h.addModel('Dropped', 'fail-mid:2');
    for (const model of [down, badKey, dropped]) {
      const res = await post({ model, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status, model).toBe(502);
      const body = (await res.json()) as OpenAiError;
      expect(body.error, model).toMatchObject({ code: 'upstream_error', type: 'api_error' });
      expect(body.error.message).not.toMatch(/Something went wrong/);
      expect(body.error.message).not.toContain('bad-key');
    }
    // The SDK sees the same as an APIError with status 502.
    await expect(client.chat.completions.create({ model: down, messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 502, code: 'upstream_error' });
  });
});
