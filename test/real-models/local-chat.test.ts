/**
 * A real small chat model (SmolLM2 135M Instruct, Q4_1) and a real embedding model
 * (all-MiniLM-L6-v2, converted to GGUF) through Parley, over real HTTP: what a person relies on
 * with a real model — listed rightly, answers and stops at the end of its turn, streams, cancel
 * keeps the partial answer, grounded answers carry citations, agents get schema-valid tool calls,
 * hybrid search ranks a paraphrase above an unrelated passage. Never the model's wit.
 */
import OpenAI from 'openai';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { collectChat, followChat } from '../support/sse.js';
import { tempDir } from '../support/core.js';
import { realModel } from '../support/real-models.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { parseToolArgs } from '../../main/core/answering/agent/tool-args.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Model {
  id: string;
  name: string;
  provider: string;
  status: string;
  capabilities: { local: boolean; context_tokens: number };
  local: { architecture: string | null; quantization: string | null; context_length: number | null; purpose: string; size_bytes: number };
}

interface Message {
  id: string;
  content: string;
  status: string;
  model_id: string;
  citations: Array<{ artifact_key?: string; key?: string; [k: string]: unknown }>;
  thoughts: Array<{ kind: string; content: string; [k: string]: unknown }>;
  usage: { input_tokens: number; output_tokens: number };
}

const VILLAGE: Record<string, string> = {
  'lighthouse.md': '# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n',
  'bakery.md': '# Bakery\n\nSourdough bread needs a starter fed with flour and water; the dough rests overnight before baking at high heat.\n',
  'orchard.md': '# Orchard\n\nApple trees are pruned in late winter, and the orchard is sprayed with lime sulphur against scab before blossom.\n',
};

const data = tempDir('parley-real-');
const chat = realModel('chat');
const embedder = realModel('embedding');
let h: Harness;
let chatId = '';
let embedId = '';

beforeAll(async () => {
  // One thread each: on two cores llama.cpp's threads fight the test runner's.
  writeFileSync(join(data.dir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  h = await startChatHarness({ dataDir: data.dir });
  const add = async (path: string) => {
    const res = await h.json<Model>('/models', 'POST', { provider: 'llama_cpp', model_path: path });
    if (res.status !== 201) throw new Error(`could not add ${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  chatId = (await add(chat.path)).id;
  embedId = (await add(embedder.path)).id;
});

afterAll(async () => {
  await h.close();
  data.remove();
});

const messagesOf = async (threadId: string) => (await h.json<{ data: Message[] }>(`/threads/${threadId}/messages`, 'GET')).body.data;

describe('real local models', () => {
  it('lists both models with what their headers say', async () => {
    const { data: models } = (await h.json<{ data: Model[] }>('/models', 'GET')).body;
    expect(models.find((m) => m.id === chatId)).toMatchObject({
      provider: 'llama_cpp',
      status: 'available',
      capabilities: { local: true, context_tokens: 8192 },
      local: { architecture: 'llama', quantization: 'Q4_1', context_length: 8192, purpose: 'chat' },
    });
    expect(models.find((m) => m.id === embedId)).toMatchObject({
      provider: 'llama_cpp',
      local: { architecture: 'bert', context_length: 256, purpose: 'embedding' },
    });
  });

  it('streams an answer and stops at the end of its turn', async () => {
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'What is the capital of France? Answer in one short sentence.', stream: true, model_endpoint_override: chatId, temperature: 0 }) });
    const events = await collectChat(res);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    // The answer's last event; only the thread's new title may follow it.
    const doneAt = events.findIndex((e) => e.event === 'message.completed');
    expect(doneAt).toBeGreaterThan(0);
    expect(events.slice(doneAt + 1).map((e) => e.event)).toEqual(events.length - 1 > doneAt ? ['thread.updated'] : []);
    const done = events[doneAt]!;
    const message = done.data.message as Message;
    expect(message.status).toBe('complete');
    expect(message.content.trim().length).toBeGreaterThan(0);
    expect(message.content).toBe(deltas.map((e) => e.data.content).join(''));
    // It ended its turn itself: far short of its context, and no chat-template token leaked.
    expect(message.usage.output_tokens).toBeLessThan(400);
    expect(message.content).not.toMatch(/<\|im_(start|end)\|>/);
  });

  it('cancel keeps the partial answer, and the model answers again', async () => {
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'Write a very long story about a lighthouse keeper, in many paragraphs.', stream: true, model_endpoint_override: chatId, temperature: 0 }) });
    let cancelled = false;
    const { threadId, messageId, text: streamed } = await followChat(res, async (so) => {
      if (!cancelled && so.text.length >= 20) {
        cancelled = true;
        expect((await h.json(`/chat/${so.messageId}/cancel`, 'POST')).status).toBeLessThan(300);
      }
    });
    const stored = (await messagesOf(threadId)).find((m) => m.id === messageId)!;
    expect(stored.status).toBe('cancelled');
    expect(stored.content.length).toBeGreaterThanOrEqual(20);
    expect(streamed.startsWith(stored.content)).toBe(true);
    // Greedy, SmolLM2 135M never ends "Say hello." (it repeats itself): a token limit keeps the test short.
    const again = await h.json<{ message: Message }>('/chat', 'POST', { message: 'Say hello.', model_endpoint_override: chatId, max_tokens: 32 });
    expect(again.body.message.status).toBe('complete');
    expect(again.body.message.content.length).toBeGreaterThan(0);
  });

  it('a grounded answer cites the passage that holds the fact, though the model writes no [n]', async () => {
    const ds = await h.dataset('Village', VILLAGE);
    const res = await h.json<{ message: Message }>('/chat', 'POST', { message: 'When is the lighthouse lamp lit, and by whom?', dataset_ids: [ds.id], model_endpoint_override: chatId, temperature: 0, max_tokens: 200 });
    const message = res.body.message;
    expect(message.status).toBe('complete');
    expect(message.content).not.toMatch(/\[\d+\]/);
    expect(message.citations.length).toBeGreaterThan(0);
    expect(message.citations.map((c) => c.artifact_key)).toEqual(message.citations.map(() => 'lighthouse.md'));
    expect(message.citations[0]).toMatchObject({ attribution: 'overlap' });
  });

  it('hybrid search with the real embedder ranks a paraphrase above unrelated passages', async () => {
    const config = await h.json<{ version: number }>('/admin/config', 'GET');
    expect((await h.json('/admin/config', 'PATCH', { values: { 'retrieval.embedding_model': embedId }, base_version: config.body.version })).status).toBe(200);
    const ds = await h.dataset('Workshop', {
      'bicycle.md': '# Bicycle\n\nHow to repair a flat tyre on a bicycle: remove the wheel, find the hole and patch the inner tube.\n',
      ...VILLAGE,
    });
    await vi.waitFor(() => expect(h.core.repos.chunks.vectorIndex()?.model).toMatch(/^gguf:/), { timeout: 60_000, interval: 50 });
    await vi.waitFor(async () => {
      const hybrid = await h.json<{ data: Array<{ artifact_key: string }>; mode: string }>('/search', 'POST', { query: 'What should I do when my bike loses air?', dataset_ids: [ds.id], mode: 'hybrid' });
      expect(hybrid.body.mode).toBe('hybrid');
      expect(hybrid.body.data[0]?.artifact_key).toBe('bicycle.md');
    }, { timeout: 60_000, interval: 100 });
    // The question shares no word with the passage: keyword ranking alone does not find it.
    const keyword = await h.json<{ data: Array<{ artifact_key: string }> }>('/search', 'POST', { query: 'What should I do when my bike loses air?', dataset_ids: [ds.id], mode: 'keyword' });
    expect(keyword.body.data.map((r) => r.artifact_key)).not.toContain('bicycle.md');
  });

  it('an agentic answer searches first with a call that validates against the tool schema, and answers', async () => {
    const ds = await h.dataset('Village', VILLAGE);
    const res = await h.json<{ message: Message }>('/chat', 'POST', { message: 'When is the lighthouse lamp lit?', dataset_ids: [ds.id], agentic: true, model_endpoint_override: chatId, temperature: 0, max_tokens: 200 });
    const message = res.body.message;
    // Complete, or cut by the token limit (greedy, a 135M model may repeat itself): never an error.
    expect(message.status, JSON.stringify(message)).toBe('complete');
    const call = message.thoughts.find((t) => t.kind === 'tool_call');
    expect(call?.content).toMatch(/^search_datasets /);
    const args = JSON.parse(call!.content.slice('search_datasets '.length)) as Record<string, unknown>;
    expect(parseToolArgs('search_datasets', args)).toMatchObject({ ok: true });
    // The search ran and found passages: an observation follows the call.
    expect(message.thoughts.some((t) => t.kind === 'observation')).toBe(true);
    expect(message.content.trim().length).toBeGreaterThan(0);
  });
});

describe('a real local model through /v1/chat/completions', () => {
  const client = () => new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
  // Bounded strings: the grammar ends each one, so the JSON is whole well within max_tokens.
  const city = { type: 'object', properties: { city: { type: 'string', maxLength: 24 }, country: { type: 'string', maxLength: 24 } }, required: ['city', 'country'] };

  it('holds response_format json_schema: the answer parses and validates', async () => {
    const answer = await client().chat.completions.create({
      model: chatId,
      messages: [{ role: 'user', content: 'Name the capital of France and its country, as JSON.' }],
      response_format: { type: 'json_schema', json_schema: { name: 'capital', schema: city } },
      temperature: 0,
      max_tokens: 64,
    });
    const text = answer.choices[0]?.message.content ?? '';
    const ajv = new Ajv();
    expect(ajv.validate(city, JSON.parse(text)), `${text}: ${ajv.errorsText()}`).toBe(true);
  });

  it('a forced tool call comes back with arguments that validate against the tool’s schema', async () => {
    const answer = await client().chat.completions.create({
      model: chatId,
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
      tools: [{ type: 'function', function: { name: 'weather', description: 'Looks up the weather in a city.', parameters: city } }],
      tool_choice: { type: 'function', function: { name: 'weather' } },
      temperature: 0,
      max_tokens: 64,
    });
    const choice = answer.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`no call: ${JSON.stringify(choice)}`);
    expect(call.function.name).toBe('weather');
    const ajv = new Ajv();
    expect(ajv.validate(city, JSON.parse(call.function.arguments)), `${call.function.arguments}: ${ajv.errorsText()}`).toBe(true);
  });
});
