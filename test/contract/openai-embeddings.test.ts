/**
 * `/v1/embeddings` and `/v1/models/{id}` as clients use them (issue 29, item 2): the official
 * `openai` SDK (float, base64, batches) and the Vercel AI SDK's `embed`/`embedMany`, against a local
 * GGUF embedding model run by llama.cpp (test/fixtures/gguf.ts) and a registered remote one (the
 * fixture upstream's `text-embedding-hash`); quota and usage as for completions.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embed, embedMany } from 'ai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embed as upstreamEmbedding } from '../fixtures/upstream.js';
import { N_EMBD, makeGguf } from '../fixtures/gguf.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';
import { trial } from '../support/people.js';
import type { AuthedContext } from '../../main/core/platform/context.js';
import { chatModels } from '../../main/core/models/catalog/catalog.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-v1-embed-'));
let h: Harness;
let client: OpenAI;
let localId: string;
let chatLocalId: string;
let remoteId: string;
let chatRemoteId: string;

type V1Model = { id: string; object: string; created: number; owned_by: string; name: string; type: string };

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
};

beforeAll(async () => {
  mkdirSync(join(dataDir, 'models'), { recursive: true });
  writeFileSync(join(dataDir, 'models', 'tiny-embed.gguf'), makeGguf({ kind: 'embedding', name: 'Tiny Embed' }));
  writeFileSync(join(dataDir, 'models', 'tiny-chat.gguf'), makeGguf({ name: 'Tiny Chat' }));
  // One thread and no idle unload: a 2-core machine, and no timers left behind.
  writeFileSync(join(dataDir, 'parley.toml'), '[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\n');
  h = await startChatHarness({ dataDir });
  const listed = (await h.json<{ data: { id: string; name: string }[] }>('/models', 'GET')).body.data;
  localId = listed.find((m) => m.name === 'Tiny Embed')?.id ?? '';
  chatLocalId = listed.find((m) => m.name === 'Tiny Chat')?.id ?? '';
  remoteId = await h.addModel('Hash Embeddings', 'text-embedding-hash');
  chatRemoteId = await h.addModel('Echo', 'echo');
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });
}, 60_000);

afterAll(async () => {
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /v1/embeddings with the openai SDK', { timeout: 60_000 }, () => {
  it('a registered remote model: float, base64 and the SDK default, in input order, with usage', async () => {
    const texts = ['apple trees in winter', 'the lighthouse lamp', 'sourdough starter'];
    const floats = await client.embeddings.create({ model: remoteId, input: texts, encoding_format: 'float' });
    expect(floats.object).toBe('list');
    expect(floats.model).toBe(remoteId);
    expect(floats.data.map((d) => [d.object, d.index])).toEqual([['embedding', 0], ['embedding', 1], ['embedding', 2]]);
    texts.forEach((t, i) => expect(floats.data[i]?.embedding).toEqual(upstreamEmbedding(t)));
    expect(floats.usage).toEqual({ prompt_tokens: 9, total_tokens: 9 });

    // The SDK asks for base64 unless told otherwise and decodes it: float32, so equal to 6 places.
    const byDefault = await client.embeddings.create({ model: remoteId, input: texts[0] ?? '' });
    const expected = upstreamEmbedding(texts[0] ?? '');
    byDefault.data[0]?.embedding.forEach((x, i) => expect(x).toBeCloseTo(expected[i] ?? NaN, 6));

    const raw = await client.embeddings.create({ model: remoteId, input: texts, encoding_format: 'base64' });
    const decoded = raw.data.map((d) => Array.from(new Float32Array(new Uint8Array(Buffer.from(d.embedding as unknown as string, 'base64')).buffer)));
    expect(decoded.map((v) => v.length)).toEqual([64, 64, 64]);
    expect(decoded[1]).toEqual(Array.from(Float32Array.from(upstreamEmbedding(texts[1] ?? ''))));

    // dimensions reach the upstream.
    const short = await client.embeddings.create({ model: remoteId, input: 'apple', dimensions: 16, encoding_format: 'float' });
    expect(short.data[0]?.embedding).toHaveLength(16);
    expect(h.upstream.requests.filter((r) => r.path === '/v1/embeddings').at(-1)?.body).toMatchObject({ model: 'text-embedding-hash', input: ['apple'], dimensions: 16 });
  });

  it('a local GGUF embedding model through llama.cpp: float and base64 agree, batches keep order', async () => {
    const texts = ['abc', 'xyz', 'the keeper lights the lamp'];
    const batch = await client.embeddings.create({ model: localId, input: texts, encoding_format: 'float' });
    expect(batch.model).toBe(localId);
    expect(batch.data.map((d) => d.embedding.length)).toEqual([N_EMBD, N_EMBD, N_EMBD]);
    expect(batch.usage.prompt_tokens).toBeGreaterThan(0);
    // Each text's vector is the one it gets alone, whatever its place in the batch.
    for (const [i, text] of texts.entries()) {
      const alone = await client.embeddings.create({ model: localId, input: text, encoding_format: 'float' });
      expect(cosine(alone.data[0]?.embedding ?? [], batch.data[i]?.embedding ?? [])).toBeCloseTo(1, 5);
    }
    expect(cosine(batch.data[0]?.embedding ?? [], batch.data[1]?.embedding ?? [])).toBeLessThan(0.99);

    const raw = await client.embeddings.create({ model: localId, input: texts, encoding_format: 'base64' });
    const decoded = raw.data.map((d) => Array.from(new Float32Array(new Uint8Array(Buffer.from(d.embedding as unknown as string, 'base64')).buffer)));
    decoded.forEach((v, i) => v.forEach((x, j) => expect(x).toBeCloseTo(batch.data[i]?.embedding[j] ?? NaN, 6)));
  });

  it('refuses what it cannot embed with OpenAI errors and stable codes, never a 5xx', async () => {
    const refused = async (body: Record<string, unknown>) => {
      try {
        await client.embeddings.create(body as unknown as OpenAI.EmbeddingCreateParams);
      } catch (error) {
        if (error instanceof OpenAI.APIError) return { status: error.status, code: error.code, param: error.param, type: error.type, message: error.message };
        throw error;
      }
      throw new Error(`accepted ${JSON.stringify(body)}`);
    };
    for (const model of [chatLocalId, chatRemoteId, 'mdl_extractive', 'auto']) {
      expect(await refused({ model, input: 'hi' }), model).toMatchObject({ status: 400, code: 'invalid_argument', param: 'model', type: 'invalid_request_error' });
    }
    expect((await refused({ model: chatRemoteId, input: 'hi' })).message).toMatch(/chat model/);
    expect(await refused({ model: 'mdl_nope', input: 'hi' })).toMatchObject({ status: 404, code: 'not_found', param: 'model' });
    expect(await refused({ model: remoteId, input: ['fine', ''] })).toMatchObject({ status: 400, code: 'invalid_argument', param: 'input.1' });
    expect(await refused({ model: remoteId, input: [] })).toMatchObject({ status: 400, code: 'invalid_argument', param: 'input' });
    expect((await refused({ model: remoteId, input: [[1, 2, 3]] })).message).toMatch(/token arrays are not supported/);
    expect((await refused({ model: remoteId, input: Array.from({ length: 2049 }, () => 'x') })).message).toMatch(/at most 2048 texts/);
    expect(await refused({ model: localId, input: 'hi', dimensions: 8 })).toMatchObject({ status: 400, param: 'dimensions' });
    // A chat request naming an embedding model gets no embedding upstream call either way.
    const before = h.upstream.requests.length;
    await refused({ model: chatRemoteId, input: 'hi' });
    expect(h.upstream.requests.length).toBe(before);
  });

  it('needs a key like every /v1 route, counts against a trial quota and records usage as openai', async () => {
    const anonymous = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'pk_NotAKeyOfThisServer0123456789', maxRetries: 0 });
    await expect(anonymous.embeddings.create({ model: remoteId, input: 'hi' })).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });

    const t = await trial(h.api, { quota: 1 });
    const asTrial = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: t.key, maxRetries: 0 });
    expect((await asTrial.embeddings.create({ model: remoteId, input: 'one', encoding_format: 'float' })).data).toHaveLength(1);
    expect(h.core.repos.usage.listByUser(t.id)).toEqual([expect.objectContaining({ model_id: remoteId, source: 'openai', input_tokens: 1, output_tokens: 0 })]);
    const calls = h.upstream.requests.length;
    await expect(asTrial.embeddings.create({ model: remoteId, input: 'two' })).rejects.toMatchObject({ status: 429, code: 'rate_limited', type: 'rate_limit_error' });
    expect(h.upstream.requests.length).toBe(calls);
  });
});

describe('an embedding model is never a chat candidate', () => {
  it('model: "auto" routing leaves out a remote model named as an embedding model, by the rule /v1 refuses it with', () => {
    const caller = h.core.service.authenticate(TEST_ADMIN_KEY);
    const ctx = { repos: h.core.repos, runtime: h.core.runtime, config: () => h.core.runtime.liveConfig.config(), now: () => new Date(), appVersion: 'test', caller } as AuthedContext;
    const candidates = chatModels(ctx).map((m) => m.id);
    expect(candidates).toContain(chatRemoteId);
    expect(candidates).not.toContain(remoteId);
  });
});

describe('GET /v1/models and /v1/models/{id}', () => {
  it('lists auto first, chat models, then embedding models marked type "embeddings"', async () => {
    const page = await client.models.list();
    const data = page.data as unknown as V1Model[];
    expect(data[0]).toMatchObject({ id: 'auto', object: 'model', owned_by: 'parley', type: 'llm' });
    const types = new Map(data.map((m) => [m.id, m.type]));
    expect(types.get(localId)).toBe('embeddings');
    expect(types.get(remoteId)).toBe('embeddings');
    expect(types.get(chatLocalId)).toBe('llm');
    expect(types.get(chatRemoteId)).toBe('llm');
    const firstEmbedding = data.findIndex((m) => m.type === 'embeddings');
    expect(data.slice(firstEmbedding).every((m) => m.type === 'embeddings')).toBe(true);
  });

  it('retrieves one model (auto too) in OpenAI shape; an unknown one is a 404 in OpenAI shape', async () => {
    expect(await client.models.retrieve(remoteId)).toMatchObject({ id: remoteId, object: 'model', owned_by: 'openai_compatible', name: 'Hash Embeddings', type: 'embeddings', created: expect.any(Number) });
    expect(await client.models.retrieve('auto')).toMatchObject({ id: 'auto', object: 'model', type: 'llm' });
    expect(await client.models.retrieve(chatLocalId)).toMatchObject({ id: chatLocalId, owned_by: 'parley', type: 'llm' });
    await expect(client.models.retrieve('mdl_nope')).rejects.toMatchObject({ status: 404, code: 'not_found', type: 'invalid_request_error' });
  });
});

describe('the Vercel AI SDK (ai@6, @ai-sdk/openai-compatible@2)', { timeout: 60_000 }, () => {
  const provider = () => createOpenAICompatible({ name: 'parley', baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY });

  it('embed and embedMany with the remote model', async () => {
    const one = await embed({ model: provider().embeddingModel(remoteId), value: 'pruning apple trees', maxRetries: 0 });
    expect(one.embedding).toEqual(upstreamEmbedding('pruning apple trees'));
    const many = await embedMany({ model: provider().embeddingModel(remoteId), values: ['lamp', 'bread', 'scab'], maxRetries: 0 });
    expect(many.embeddings).toEqual(['lamp', 'bread', 'scab'].map((t) => upstreamEmbedding(t)));
    expect(many.usage.tokens).toBe(3);
  });

  it('embedMany with the local GGUF model', async () => {
    const many = await embedMany({ model: provider().embeddingModel(localId), values: ['abc', 'xyz'], maxRetries: 0 });
    expect(many.embeddings.map((e) => e.length)).toEqual([N_EMBD, N_EMBD]);
    expect(cosine(many.embeddings[0] ?? [], many.embeddings[1] ?? [])).toBeLessThan(0.99);
  });
});
