/**
 * Local GGUF models over real HTTP, on the real llama.cpp path (node-llama-cpp), with models the
 * tests write (test/fixtures/gguf.ts): listing with header metadata, discovery in app folders of a
 * temporary home and of running servers, exact streamed answers through /api/chat and the
 * OpenAI-compatible facade (official SDK), cancel, clear refusals, routing to the local model when
 * the remote provider is down, and offline embeddings feeding hybrid retrieval.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { collectChat, readSse } from '../support/sse.js';
import { CHAT_ANSWER, LOOP_TEXT, makeGguf } from '../fixtures/gguf.js';

interface LocalModel {
  id: string;
  name: string;
  kind: string;
  provider: string;
  status: string;
  capabilities: { local: boolean; context_tokens: number };
  local: { path: string | null; size_bytes: number; architecture: string | null; quantization: string | null; context_length: number | null; state: string; error?: string; purpose: string; found_in: string };
}

const home = mkdtempSync(join(tmpdir(), 'parley-home-'));
const dataDir = mkdtempSync(join(tmpdir(), 'parley-local-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'parley-elsewhere-'));
const CHAT = makeGguf({ name: 'Tiny Chat', contextLength: 1024 });

/** Writes `bytes` at `path`, creating its folders. */
function put(path: string, bytes: Buffer | string) {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, bytes);
}

// The folder layouts of the apps users already have, in a temporary home.
put(join(home, '.lmstudio', 'models', 'lmstudio-community', 'Tiny-GGUF', 'tiny-lmstudio-F32.gguf'), makeGguf({ name: 'LM Studio Tiny' }));
put(join(home, '.local', 'share', 'Jan', 'data', 'llamacpp', 'models', 'tiny-jan', 'model.gguf'), makeGguf({ name: 'Jan Tiny' }));
put(join(home, '.local', 'share', 'nomic.ai', 'GPT4All', 'tiny-gpt4all.gguf'), makeGguf({ name: 'GPT4All Tiny' }));
// Ollama: a manifest names the blob (no .gguf extension) that holds the model.
const BLOB = 'a'.repeat(64);
put(join(home, '.ollama', 'models', 'blobs', `sha256-${BLOB}`), makeGguf({ name: 'Ollama Tiny' }));
put(
  join(home, '.ollama', 'models', 'manifests', 'registry.ollama.ai', 'library', 'tinyllama', 'latest'),
  JSON.stringify({ schemaVersion: 2, layers: [{ mediaType: 'application/vnd.ollama.image.model', digest: `sha256:${BLOB}`, size: 1 }, { mediaType: 'application/vnd.ollama.image.template', digest: `sha256:${'b'.repeat(64)}` }] }),
);

/** Stand-ins for running Ollama and LM Studio servers (their discovery endpoints only). */
const servers = http.createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/api/tags') res.end(JSON.stringify({ models: [{ name: 'llama3.1:8b' }] }));
  else if (req.url === '/v1/models') res.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen2.5-7b-instruct' }] }));
  else res.writeHead(404).end('{}');
});

let h: Harness;
let serversUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => servers.listen(0, '127.0.0.1', resolve));
  serversUrl = `http://127.0.0.1:${(servers.address() as AddressInfo).port}`;
  // One thread: on a 2-core machine llama.cpp's own default (4) is ~200× slower per token.
  writeFileSync(
    join(dataDir, 'parley.toml'),
    `[local_models]\nthreads = 1\ngpu = false\nidle_unload_seconds = 0\nollama_url = "${serversUrl}"\nlm_studio_url = "${serversUrl}"\n`,
  );
  h = await startChatHarness({ dataDir, folderEnv: () => ({ home, platform: 'linux' }) });
});

afterAll(async () => {
  await h.close();
  await new Promise((resolve) => servers.close(resolve));
  for (const dir of [home, dataDir, elsewhere]) rmSync(dir, { recursive: true, force: true });
});

const models = async (token?: string) => (await h.json<{ data: LocalModel[] }>('/models', 'GET', undefined, token)).body.data;
const byName = async (name: string) => {
  const found = (await models()).find((m) => m.name === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found;
};

describe('local GGUF models', { timeout: 60_000 }, () => {
  it('lists a GGUF dropped into <data-dir>/models with what its header says, without loading it', async () => {
    put(join(dataDir, 'models', 'tiny-chat.gguf'), CHAT);
    const model = await byName('Tiny Chat');
    expect(model).toMatchObject({
      id: expect.stringMatching(/^mdl_gguf[0-9a-f]+$/),
      kind: 'builtin',
      provider: 'llama_cpp',
      status: 'available',
      capabilities: { local: true, context_tokens: 1024 },
      local: { path: join(dataDir, 'models', 'tiny-chat.gguf'), size_bytes: CHAT.length, architecture: 'llama', quantization: 'F32', context_length: 1024, state: 'unloaded', purpose: 'chat', found_in: 'data_dir' },
    });
    // The id is stable across listings (it is the path's).
    expect((await byName('Tiny Chat')).id).toBe(model.id);
  });

  it('shows file paths to admins only', async () => {
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'local-member@example.com', name: 'Member' });
    const seen = (await models(member.body.api_key.key)).find((m) => m.name === 'Tiny Chat');
    expect(seen?.local).toMatchObject({ path: null, architecture: 'llama' });
    expect((await h.json('/models/discovered', 'GET', undefined, member.body.api_key.key)).status).toBe(403);
  });

  it('finds models in LM Studio, Jan, GPT4All and Ollama folders where they lie, and running servers', async () => {
    const { body } = await h.json<{ data: Array<{ source: string; name: string; path?: string; endpoint_url?: string; models?: string[]; registered: boolean; model_id?: string }> }>('/models/discovered', 'GET');
    const files = body.data.filter((d) => d.source === 'file');
    expect(files.map((f) => f.name).sort()).toEqual(['GPT4All Tiny', 'Jan Tiny', 'LM Studio Tiny', 'Tiny Chat', 'tinyllama:latest']);
    expect(files.find((f) => f.name === 'tinyllama:latest')?.path).toBe(join(home, '.ollama', 'models', 'blobs', `sha256-${BLOB}`));
    expect(files.find((f) => f.name === 'LM Studio Tiny')?.path).toContain(join(home, '.lmstudio', 'models'));
    expect(body.data.filter((d) => d.source !== 'file')).toEqual([
      { source: 'ollama', name: 'Ollama', endpoint_url: `${serversUrl}/v1`, models: ['llama3.1:8b'], registered: false },
      { source: 'lm_studio', name: 'LM Studio', endpoint_url: `${serversUrl}/v1`, models: ['qwen2.5-7b-instruct'], registered: false },
    ]);
    const listed = await models();
    expect(listed.find((m) => m.name === 'tinyllama:latest')?.local).toMatchObject({ found_in: 'ollama', architecture: 'llama' });
    expect(listed.find((m) => m.name === 'Jan Tiny')?.local?.found_in).toBe('jan');

    // One call registers a server as an OpenAI-compatible model; it is then marked registered.
    const created = await h.json('/models', 'POST', { name: 'Ollama llama3.1:8b', provider: 'openai_compatible', endpoint_url: `${serversUrl}/v1`, model: 'llama3.1:8b' });
    expect(created.status).toBe(201);
    const again = await h.json<{ data: Array<{ source: string; registered: boolean }> }>('/models/discovered', 'GET');
    expect(again.body.data.find((d) => d.source === 'ollama')?.registered).toBe(true);
    await h.json(`/models/${(created.body as { id: string }).id}`, 'DELETE');
  });

  it('streams an exact answer through /api/chat, stored with its usage', async () => {
    const model = await byName('Tiny Chat');
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'Say the alphabet', stream: true, model_endpoint_override: model.id }) });
    expect(res.status).toBe(200);
    const events = await collectChat(res);
    const deltas = events.filter((e) => e.event === 'delta');
    expect(deltas.length).toBeGreaterThan(1); // streamed, not one block
    expect(deltas.map((e) => e.data.content).join('')).toBe(CHAT_ANSWER);
    // A new thread: the local model's title for it follows the answer's end.
    expect(events.at(-1)?.event).toBe('thread.updated');
    const done = events.at(-2)!;
    expect(done.event).toBe('message.completed');
    const message = done.data.message as { content: string; status: string; model_id: string; usage: { input_tokens: number; output_tokens: number } };
    expect(message).toMatchObject({ content: CHAT_ANSWER, status: 'complete', model_id: model.id });
    // The byte tokenizer: one token per letter, plus the end-of-turn token.
    expect(message.usage.output_tokens).toBe(CHAT_ANSWER.length + 1);
    expect(message.usage.input_tokens).toBeGreaterThan('Say the alphabet'.length);
    expect((await byName('Tiny Chat')).local.state).toBe('loaded');
  });

  it('answers through /v1/chat/completions with the official openai SDK, streamed and not', async () => {
    const model = await byName('Tiny Chat');
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'pk_TestOwnerKey0123456789abcdef' });
    const whole = await client.chat.completions.create({ model: model.id, messages: [{ role: 'user', content: 'abc' }] });
    expect(whole.choices[0]?.message.content).toBe(CHAT_ANSWER);
    expect(whole.usage?.completion_tokens).toBe(CHAT_ANSWER.length + 1);
    const stream = await client.chat.completions.create({ model: model.id, messages: [{ role: 'user', content: 'abc' }], stream: true });
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) {
        text += piece;
        chunks++;
      }
    }
    expect(text).toBe(CHAT_ANSWER);
    expect(chunks).toBeGreaterThan(1);
  });

  it('answers agentically through node-llama-cpp function calling (tools offered over a dataset)', async () => {
    // Tool descriptions take thousands of byte-level tokens: a context that holds them.
    put(join(dataDir, 'models', 'agent.gguf'), makeGguf({ name: 'Agent Chat', contextLength: 8192 }));
    const model = await byName('Agent Chat');
    const ds = await h.dataset('Agent notes', { 'note.md': '# Note\n\nThe lamp is lit at dusk.\n' });
    const res = await h.json<{ message: { content: string; status: string; error?: unknown; thoughts: Array<{ kind: string }> } }>('/chat', 'POST', { message: 'When is the lamp lit?', dataset_ids: [ds.id], agentic: true, model_endpoint_override: model.id });
    expect(res.body.message, JSON.stringify(res.body.message)).toMatchObject({ status: 'complete' });
    // The generated model answers rather than calling a tool; what matters is the native agent path ran on it.
    expect(res.body.message.content).toContain(CHAT_ANSWER);
    expect(res.body.message.thoughts.map((t) => t.kind)).toContain('plan');
  });

  it('cancels mid-answer: generation stops, the partial text is kept, and the model answers again', async () => {
    put(join(dataDir, 'models', 'loop.gguf'), makeGguf({ name: 'Loop Chat', loop: true, contextLength: 2048 }));
    const model = await byName('Loop Chat');
    const res = await h.api('/chat', { method: 'POST', body: JSON.stringify({ message: 'go', stream: true, model_endpoint_override: model.id }) });
    let messageId = '';
    let streamed = '';
    let cancelled = false;
    const events: string[] = [];
    for await (const e of readSse(res)) {
      events.push(e.event ?? '');
      const data = JSON.parse(e.data) as { message_id?: string; content?: string };
      if (e.event === 'message.created') messageId = data.message_id ?? '';
      if (e.event === 'delta') {
        streamed += data.content ?? '';
        // A delta may carry several tokens (a fast model's are coalesced): cancel once 5 are out.
        if (!cancelled && streamed.length >= 5) {
          cancelled = true;
          expect((await h.json(`/chat/${messageId}/cancel`, 'POST')).status).toBeLessThan(300);
        }
      }
    }
    const thread = await h.json<{ data: Array<{ id: string; content: string; status: string }> }>(`/threads/${(await h.json<{ data: Array<{ id: string }> }>('/threads', 'GET')).body.data[0]!.id}/messages`, 'GET');
    const stored = thread.body.data.find((m) => m.id === messageId)!;
    expect(stored.status).toBe('cancelled');
    // Kept as streamed; far short of what the model would have written (it never ends its turn).
    expect(LOOP_TEXT.repeat(10).startsWith(stored.content)).toBe(true);
    expect(stored.content.length).toBeGreaterThanOrEqual(5);
    expect(stored.content.length).toBeLessThan(200);
    // The sequence was given back: another answer on the same model starts and is cut by max_tokens.
    const client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'pk_TestOwnerKey0123456789abcdef' });
    const next = await client.chat.completions.create({ model: model.id, messages: [{ role: 'user', content: 'go' }], max_tokens: 30 });
    expect(next.choices[0]?.message.content).toBe(LOOP_TEXT + LOOP_TEXT.slice(0, 4));
  });

  it('refuses a file that is not GGUF clearly, and lists one dropped in as failed with the reason', async () => {
    put(join(elsewhere, 'notes.gguf'), 'these are my notes, not a model');
    const refused = await h.json<{ code: string; detail: string }>('/models', 'POST', { provider: 'llama_cpp', model_path: join(elsewhere, 'notes.gguf') });
    expect(refused.status).toBe(415);
    expect(refused.body.detail).toMatch(/not a GGUF model/);
    expect((await h.json('/models', 'POST', { provider: 'llama_cpp', model_path: 'relative/model.gguf' })).status).toBe(400);
    expect((await h.json('/models', 'POST', { provider: 'llama_cpp', model_path: join(elsewhere, 'missing.gguf') })).status).toBe(400);

    put(join(dataDir, 'models', 'broken.gguf'), 'GGUF but then nothing');
    const broken = (await models()).find((m) => m.local?.path?.endsWith('broken.gguf'));
    expect(broken).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: expect.stringMatching(/GGUF/) } });
    const load = await h.json(`/models/${broken!.id}/load`, 'POST');
    expect(load.status).toBe(422);
  });

  it('an unsupported architecture fails to load with the reason, and the server keeps running', async () => {
    put(join(elsewhere, 'alien.gguf'), makeGguf({ name: 'Alien', architecture: 'alien-arch' }));
    const added = await h.json<LocalModel>('/models', 'POST', { provider: 'llama_cpp', model_path: join(elsewhere, 'alien.gguf') });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ name: 'Alien', kind: 'builtin', local: { architecture: 'alien-arch', found_in: 'added', state: 'unloaded' } });
    const loaded = await h.json<LocalModel>(`/models/${added.body.id}/load`, 'POST');
    expect(loaded.status).toBe(200);
    expect(loaded.body).toMatchObject({ status: 'unavailable', local: { state: 'failed', error: expect.stringMatching(/architecture/i) } });
    // Chat to it is a clear error, not a crash.
    const chat = await h.json<{ message: { status: string } }>('/chat', 'POST', { message: 'hi', model_endpoint_override: added.body.id });
    expect(chat.body.message.status).toBe('error');
    expect((await h.json('/health', 'GET')).status).toBe(200);
    expect((await h.json(`/models/${added.body.id}`, 'DELETE')).status).toBe(204);
  });

  it('load and unload on demand (admins)', async () => {
    const model = await byName('Jan Tiny');
    expect((await h.json<LocalModel>(`/models/${model.id}/load`, 'POST')).body.local.state).toBe('loaded');
    expect((await h.json<LocalModel>(`/models/${model.id}/unload`, 'POST')).body.local.state).toBe('unloaded');
    expect((await h.json('/models/mdl_extractive/load', 'POST')).status).toBe(400);
  });

  it('routes to the local model when the third-party provider is down', async () => {
    const down = await h.addModel('Remote Down', 'echo', { endpoint_url: 'http://127.0.0.1:9/v1', capabilities: { quality: 9 } });
    const res = await h.json<{ message: { content: string; model_id: string; routing: { model_id: string; skipped: Array<{ model_id: string }> } } }>('/chat', 'POST', { message: 'Hello there' });
    expect(res.status).toBe(200);
    expect(res.body.message.content).toBe(CHAT_ANSWER);
    const local = (await models()).find((m) => m.id === res.body.message.model_id);
    expect(local?.provider).toBe('llama_cpp');
    expect(res.body.message.routing.skipped.map((s) => s.model_id)).toContain(down);
    await h.json(`/models/${down}`, 'DELETE');
  });

  it('embeds with a local GGUF embedding model: hybrid retrieval with no network', async () => {
    put(join(dataDir, 'models', 'tiny-embed.gguf'), makeGguf({ kind: 'embedding', name: 'Tiny Embed' }));
    const embed = await byName('Tiny Embed');
    expect(embed.local.purpose).toBe('embedding');
    expect(embed.capabilities).toMatchObject({ local: true });
    const config = await h.json<{ version: number }>('/admin/config', 'GET');
    const patched = await h.json('/admin/config', 'PATCH', { values: { 'retrieval.embedding_model': embed.id }, base_version: config.body.version });
    expect(patched.status).toBe(200);

    const ds = await h.dataset('Handbook', { 'lighthouse.md': '# Lighthouse\n\nThe keeper lights the lamp at dusk.\n', 'bakery.md': '# Bakery\n\nSourdough rests overnight.\n' });
    // Vectors come after the file is ready, in the background.
    await vi.waitFor(() => expect(h.core.repos.chunks.vectorIndex()?.model).toMatch(/^gguf:tiny-embed\.gguf:/), { timeout: 20_000, interval: 50 });
    // A question sharing no word with the files: keyword search finds nothing, the vectors do.
    const res = await h.json<{ message: { citations: unknown[]; status: string } }>('/chat', 'POST', { message: 'zzqx wvuy', dataset_ids: [ds.id], model_endpoint_override: 'mdl_extractive' });
    expect(res.body.message.status).toBe('complete');
    expect(res.body.message.citations.length).toBeGreaterThan(0);
    // The embedding model is not a chat candidate.
    const dynamic = await h.json<{ message: { model_id: string } }>('/chat', 'POST', { message: 'hi' });
    expect(dynamic.body.message.model_id).not.toBe(embed.id);
  });

  it("finds Jan's older Linux folder and symlinked folders, sizes split models whole, and names quantisations apart", async () => {
    // Jan 0.5 on Linux: ~/.config/Jan/data/models/<id>/<file>.gguf.
    put(join(home, '.config', 'Jan', 'data', 'models', 'tiny-jan-old', 'tiny-jan-old.Q4_K_M.gguf'), makeGguf({ kind: 'embedding', name: 'Jan Old Tiny' }));
    // LM Studio's folder links to a folder on another disk, which links back (a loop).
    const linked = join(elsewhere, 'linked-models');
    put(join(linked, 'linked.gguf'), makeGguf({ kind: 'embedding', name: 'Linked Tiny' }));
    symlinkSync(linked, join(home, '.lmstudio', 'models', 'other-disk'), 'dir');
    symlinkSync(join(home, '.lmstudio', 'models'), join(linked, 'back'), 'dir');
    // A split model: the first shard (a whole header) and a second one.
    const first = makeGguf({ kind: 'embedding', name: 'Split Tiny' });
    put(join(dataDir, 'models', 'split-tiny-00001-of-00002.gguf'), first);
    put(join(dataDir, 'models', 'split-tiny-00002-of-00002.gguf'), Buffer.alloc(4096));
    // Two quantisations of one model. (Embedding models, so later routing tests do not pick them.)
    const twins = join(home, '.lmstudio', 'models', 'someone', 'Twin-Tiny-GGUF');
    put(join(twins, 'Twin-Tiny-Q4_K_M.gguf'), makeGguf({ kind: 'embedding', name: 'Twin Tiny', fileType: 15 }));
    put(join(twins, 'Twin-Tiny-Q8_0.gguf'), makeGguf({ kind: 'embedding', name: 'Twin Tiny', fileType: 7 }));

    const { body } = await h.json<{ data: Array<{ source: string; name: string; path?: string; size_bytes?: number }> }>('/models/discovered', 'GET');
    const files = body.data.filter((d) => d.source === 'file');
    const names = files.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['Jan Old Tiny', 'Linked Tiny', 'Split Tiny', 'Twin Tiny Q4_K_M', 'Twin Tiny Q8_0']));
    expect(new Set(names).size).toBe(names.length);
    expect(files.find((f) => f.name === 'Linked Tiny')?.path).toBe(join(home, '.lmstudio', 'models', 'other-disk', 'linked.gguf'));
    expect(files.filter((f) => f.path?.includes('split-tiny'))).toEqual([expect.objectContaining({ name: 'Split Tiny', size_bytes: first.length + 4096 })]);

    const listed = await models();
    expect((await byName('Split Tiny')).local.size_bytes).toBe(first.length + 4096);
    expect((await byName('Jan Old Tiny')).local.found_in).toBe('jan');
    expect(listed.filter((m) => m.name.startsWith('Twin Tiny')).map((m) => [m.name, m.local.quantization]).sort()).toEqual([
      ['Twin Tiny Q4_K_M', 'Q4_K_M'],
      ['Twin Tiny Q8_0', 'Q8_0'],
    ]);
  });
});
