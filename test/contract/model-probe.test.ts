/**
 * `POST /models/probe`: the model ids an endpoint offers, for the add and edit forms to pick from,
 * asked through each provider's official SDK against the deterministic upstream; failures name the
 * field to fix; a stored key is lent to its own origin only; members cannot probe (SSRF).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MODELS, startUpstream } from '../fixtures/upstream.js';
import { startChatHarness, type Harness } from '../support/chat.js';
import { person } from '../support/people.js';

let h: Harness;
beforeAll(async () => {
  h = await startChatHarness();
});
afterAll(() => h.close());

type Problem = { code: string; errors?: Array<{ path: string; message: string }>; detail: string };
const sorted = [...DEFAULT_MODELS].sort((a, b) => a.localeCompare(b));

describe('POST /models/probe', () => {
  it('lists an OpenAI-compatible endpoint’s model ids, sorted', async () => {
    const res = await h.json<{ data: Array<{ id: string }> }>('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, api_key: 'sk-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.id)).toEqual(sorted);
    expect(h.upstream.requests.at(-1)).toMatchObject({ protocol: 'openai', apiKey: 'sk-1' });
  });

  it('lists an Anthropic endpoint’s model ids through the Anthropic SDK', async () => {
    const res = await h.json<{ data: Array<{ id: string }> }>('/models/probe', 'POST', { provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl, api_key: 'ak-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m) => m.id)).toEqual(sorted);
    expect(h.upstream.requests.at(-1)?.protocol).toBe('anthropic');
  });

  it('a refused key is 422 on api_key; nothing listening is 422 on endpoint_url; never a 5xx', async () => {
    const refused = await h.json<Problem>('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, api_key: 'bad-key' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.map((e) => e.path)).toEqual(['api_key']);
    expect(refused.body.detail).not.toContain('bad-key');
    const anthropicNoKey = await h.json<Problem>('/models/probe', 'POST', { provider: 'anthropic', endpoint_url: h.upstream.anthropicBaseUrl });
    expect(anthropicNoKey.status).toBe(422);
    expect(anthropicNoKey.body.errors?.[0]).toMatchObject({ path: 'api_key', message: 'is needed by this endpoint' });
    const nobody = await h.json<Problem>('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: 'http://127.0.0.1:9/v1' });
    expect(nobody.status).toBe(422);
    expect(nobody.body.errors?.[0]).toMatchObject({ path: 'endpoint_url', message: 'did not answer' });
    const missing = await h.json<Problem>('/models/probe', 'POST', { provider: 'openai_compatible' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.[0]?.path).toBe('endpoint_url');
  });

  it('editing a model, its stored key is used at its own origin and never sent to another', async () => {
    const id = await h.addModel('Keyed probe', 'echo');
    const same = await h.json<{ data: Array<{ id: string }> }>('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, model_id: id });
    expect(same.status).toBe(200);
    expect(h.upstream.requests.at(-1)?.apiKey).toBe('sk-keyedprobe');
    // Another server (another port is another origin) answers too, but never sees the stored key.
    const other = await startUpstream();
    try {
      const elsewhere = await h.json('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: other.openaiBaseUrl, model_id: id });
      expect(elsewhere.status).toBe(200);
      expect(other.requests.length).toBe(1);
      expect(other.requests[0]?.apiKey).not.toBe('sk-keyedprobe');
    } finally {
      await other.close();
    }
  });

  it('is for admins only', async () => {
    const member = await person(h.api, 'member');
    const res = await h.json<Problem>('/models/probe', 'POST', { provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl }, member.key);
    expect(res.status).toBe(403);
  });
});

describe('PATCH /models/{id} and the stored key', () => {
  it('keeps the key while the endpoint keeps its origin, drops it when the endpoint moves elsewhere', async () => {
    const id = await h.addModel('Moving', 'echo');
    const samePlace = await h.json<{ has_api_key: boolean }>(`/models/${id}`, 'PATCH', { endpoint_url: `${h.upstream.openaiBaseUrl}/` });
    expect(samePlace.body.has_api_key).toBe(true);
    const moved = await h.json<{ has_api_key: boolean }>(`/models/${id}`, 'PATCH', { endpoint_url: 'http://127.0.0.1:9/v1' });
    expect(moved.body.has_api_key).toBe(false);
    const withKey = await h.json<{ has_api_key: boolean }>(`/models/${id}`, 'PATCH', { endpoint_url: h.upstream.openaiBaseUrl, api_key: 'sk-new' });
    expect(withKey.body.has_api_key).toBe(true);
  });
});
