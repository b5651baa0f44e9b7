import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatHarness, type Harness } from '../support/chat.js';
import { TEST_ADMIN_KEY } from '../support/core.js';

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

const SECRET = 'sk-live-very-secret-0123456789';

describe('models', () => {
  it('lists the built-in model, which works offline', async () => {
    const { body } = await h.json<{ data: Array<{ id: string; kind: string; provider: string; status: string; capabilities: { local: boolean } }> }>('/models', 'GET');
    expect(body.data[0]).toMatchObject({ id: 'mdl_extractive', kind: 'builtin', provider: 'extractive', status: 'available', capabilities: { local: true } });
  });

  it('admins register third-party and fine-tuned models; provider keys are stored encrypted and never returned', async () => {
    const created = await h.api('/models', {
      method: 'POST',
      body: JSON.stringify({ name: 'Secret GPT', provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, api_key: SECRET, model: 'echo' }),
    });
    const createdText = await created.text();
    expect(created.status).toBe(201);
    expect(createdText).not.toContain(SECRET);
    const model = JSON.parse(createdText) as { id: string; kind: string; has_api_key: boolean };
    expect(model).toMatchObject({ kind: 'third_party', has_api_key: true });

    const tuned = await h.json<{ kind: string; base_model: string }>('/models', 'POST', {
      name: 'Tuned', provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, api_key: SECRET, model: 'echo', base_model: 'llama-3.1-8b',
    });
    expect(tuned.body).toMatchObject({ kind: 'fine_tuned', base_model: 'llama-3.1-8b' });

    // The key is used (decrypted) when calling the provider…
    await h.json('/chat', 'POST', { message: 'hi', model_endpoint_override: model.id });
    expect(h.upstream.requests.at(-1)?.apiKey).toBe(SECRET);
    // …but no answer carries it, and the database holds only ciphertext.
    for (const path of ['/models', '/threads', `/workspaces/${h.core.desktopCaller().user.workspace_id}/model-overrides`]) {
      expect(await (await h.api(path)).text()).not.toContain(SECRET);
    }
    const blobs = h.core.db.prepare('SELECT api_key_secret FROM models').all() as Array<{ api_key_secret: Buffer }>;
    expect(blobs.length).toBeGreaterThan(0);
    for (const { api_key_secret } of blobs) expect(api_key_secret.toString('latin1')).not.toContain(SECRET);
  });

  it('members cannot register or remove models; built-in models cannot be removed', async () => {
    const member = await h.json<{ api_key: { key: string } }>('/admin/users', 'POST', { email: 'mem@example.com', name: 'Mem' });
    const res = await h.json('/models', 'POST', { name: 'X', provider: 'openai_compatible', endpoint_url: 'http://127.0.0.1:1/v1', model: 'x' }, member.body.api_key.key);
    expect(res.status).toBe(403);
    expect((await h.json('/models/mdl_extractive', 'DELETE')).status).toBe(409);
  });

  it('refuses an openai_compatible model without an endpoint, or with a non-http URL', async () => {
    const missing = await h.json<{ errors: Array<{ path: string }> }>('/models', 'POST', { name: 'X', provider: 'openai_compatible', model: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]?.path).toBe('endpoint_url');
    const ftp = await h.json('/models', 'POST', { name: 'X', provider: 'openai_compatible', endpoint_url: 'file:///etc/passwd', model: 'x' });
    expect(ftp.status).toBe(400);
  });

  it('test connection says whether the model answers', async () => {
    const good = await h.addModel('Good', 'echo');
    const bad = await h.addModel('Bad', 'status:503');
    const ok = await h.json<{ ok: boolean; latency_ms: number; detail: string }>(`/models/${good}/test`, 'POST', {});
    expect(ok.body).toMatchObject({ ok: true });
    const ko = await h.json<{ ok: boolean; detail: string }>(`/models/${bad}/test`, 'POST', {});
    expect(ko.body.ok).toBe(false);
    expect(ko.body.detail).toMatch(/503/);
  });

  it('a model that fails its test is unavailable and not routed to until it is fixed (PATCH) and passes', async () => {
    const dead = await h.addModel('Dead but best', 'status:503', { capabilities: { quality: 10, strengths: ['general'] } });
    expect((await h.json<{ ok: boolean }>(`/models/${dead}/test`, 'POST', {})).body.ok).toBe(false);
    const listed = await h.json<{ data: Array<{ id: string; status: string }> }>('/models', 'GET');
    expect(listed.body.data.find((m) => m.id === dead)?.status).toBe('unavailable');
    const before = h.upstream.requests.length;
    const routed = await h.json<{ message: { model_id: string } }>('/chat', 'POST', { message: 'who answers?' });
    expect(routed.body.message.model_id).not.toBe(dead);
    expect(h.upstream.requests.slice(before).some((r) => r.model === 'status:503')).toBe(false);

    const edited = await h.json<{ id: string; name: string; model: string; status: string; has_api_key: boolean }>(`/models/${dead}`, 'PATCH', { name: 'Fixed', model: 'echo' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: dead, name: 'Fixed', model: 'echo', status: 'available', has_api_key: true });
    expect((await h.json<{ ok: boolean }>(`/models/${dead}/test`, 'POST', {})).body.ok).toBe(true);
    const back = await h.json<{ message: { model_id: string; content: string } }>('/chat', 'POST', { message: 'and now?' });
    expect(back.body.message).toMatchObject({ model_id: dead, content: 'You said: and now?' });
  });

  it('PATCH /models/{id}: the key can be replaced or removed; errors name their field; built-in models are not editable', async () => {
    const id = await h.addModel('Keyed', 'echo');
    const cleared = await h.json<{ has_api_key: boolean }>(`/models/${id}`, 'PATCH', { api_key: null });
    expect(cleared.body.has_api_key).toBe(false);
    const noEndpoint = await h.json<{ code: string; errors: Array<{ path: string }> }>(`/models/${id}`, 'PATCH', { endpoint_url: null });
    expect(noEndpoint).toMatchObject({ status: 400, body: { code: 'invalid_argument' } });
    expect(noEndpoint.body.errors[0]?.path).toBe('endpoint_url');
    const badUrl = await h.json<{ errors: Array<{ path: string }> }>(`/models/${id}`, 'PATCH', { endpoint_url: 'ftp://x' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.errors[0]?.path).toBe('endpoint_url');
    expect((await h.json<{ code: string }>('/models/mdl_extractive', 'PATCH', { name: 'Mine' })).status).toBe(409);
    expect((await h.json<{ code: string }>('/models/mdl_nope', 'PATCH', { name: 'Mine' })).status).toBe(404);
  });

  it('answers through the Anthropic provider with its official SDK', async () => {
    const claude = await h.json<{ id: string }>('/models', 'POST', { name: 'Claude', provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'ak-1', model: 'echo' });
    const answer = await h.json<{ message: { content: string; status: string; model_id: string } }>('/chat', 'POST', { message: 'bonjour', model_endpoint_override: claude.body.id });
    expect(answer.body.message).toMatchObject({ status: 'complete', content: 'You said: bonjour', model_id: claude.body.id });
    expect(h.upstream.requests.at(-1)?.protocol).toBe('anthropic');
  });
});

describe('workspace endpoint overrides', () => {
  it('send a model’s requests to another endpoint and key in this workspace; naming the override answers through it', async () => {
    const model = await h.addModel('Overridden', 'echo');
    const workspace = h.core.desktopCaller().user.workspace_id;
    const put = await h.json<{ id: string; endpoint_url: string; has_api_key: boolean }>(`/workspaces/${workspace}/model-overrides/${model}`, 'PUT', {
      endpoint_url: `${h.upstream.url}/v1`,
      api_key: 'sk-override',
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: expect.stringMatching(/^ovr_/), has_api_key: true });

    const viaOverride = await h.json<{ message: { content: string; routing: { mode: string; reason: string } } }>('/chat', 'POST', { message: 'through', model_endpoint_override: put.body.id });
    expect(viaOverride.body.message.content).toBe('You said: through');
    expect(viaOverride.body.message.routing.mode).toBe('override');
    expect(viaOverride.body.message.routing.reason).toContain(put.body.id);
    expect(h.upstream.requests.at(-1)?.apiKey).toBe('sk-override');

    const list = await h.json<{ data: Array<{ id: string }> }>(`/workspaces/${workspace}/model-overrides`, 'GET');
    expect(list.body.data.map((o) => o.id)).toContain(put.body.id);
    expect((await h.json(`/workspaces/${workspace}/model-overrides/${model}`, 'DELETE')).status).toBe(204);
    await h.json('/chat', 'POST', { message: 'direct', model_endpoint_override: model });
    expect(h.upstream.requests.at(-1)?.apiKey).toBe('sk-overridden');
  });

  it('another workspace’s overrides are not reachable', async () => {
    const res = await h.json('/workspaces/wsp_notmine/model-overrides', 'GET');
    expect(res.status).toBe(404);
  });
});

describe('OpenAI-compatible facade at /v1, driven by the official openai SDK', () => {
  const client = () => new OpenAI({ baseURL: `${h.url}/v1`, apiKey: TEST_ADMIN_KEY, maxRetries: 0 });

  it('lists models with "auto" first', async () => {
    const models = await client().models.list();
    expect(models.data[0]?.id).toBe('auto');
    expect(models.data.map((m) => m.id)).toContain('mdl_extractive');
  });

  it('answers with a named model, streaming and not, with usage', async () => {
    const id = await h.addModel('Facade', 'usage:11:3');
    const done = await client().chat.completions.create({ model: id, messages: [{ role: 'user', content: 'hi' }] });
    expect(done.choices[0]?.message.content).toBe('ok');
    expect(done.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    expect(done.model).toBe(id);

    const echo = await h.addModel('Facade echo', 'echo');
    const stream = await client().chat.completions.create({ model: echo, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'stream please' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('You said: stream please');
    expect(usage?.total_tokens).toBeGreaterThan(0);
    // The stream helper checks the wire format strictly (role first, finish_reason last).
    const helper = client().chat.completions.stream({ model: echo, messages: [{ role: 'user', content: 'strict' }] });
    expect((await helper.finalChatCompletion()).choices[0]?.message.content).toBe('You said: strict');
  });

  it('"auto" is dynamic routing', async () => {
    const done = await client().chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: 'route me' }] });
    expect(typeof done.choices[0]?.message.content).toBe('string');
    expect(done.model).toMatch(/^mdl_/);
  });

  it('errors come in OpenAI’s envelope with the right status', async () => {
    await expect(client().chat.completions.create({ model: 'mdl_missing', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(new OpenAI({ baseURL: `${h.url}/v1`, apiKey: 'pk_wrongwrongwrongwrong', maxRetries: 0 }).models.list()).rejects.toMatchObject({ status: 401 });
    const malformed = { model: 'auto', messages: 'nope' } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
    await expect(client().chat.completions.create(malformed)).rejects.toMatchObject({ status: 400 });
  });
});
