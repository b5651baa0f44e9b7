/**
 * Issue 10, items 1 and 12, performed over HTTP: a trial user trying to escape expiry and quota,
 * and a second organization trying to reach the first one's models, overrides and keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VILLAGE_DOCS, startChatHarness, type Harness } from '../support/chat.js';
import { call, person, secondOrganization, trial, type Person } from '../support/people.js';
import { issueApiKey } from '../../main/core/platform/auth/api-keys.js';

let h: Harness;
const get = <T = Record<string, unknown>>(path: string, token?: string) => call<T>(h.api, path, token === undefined ? {} : { token });
const post = <T = Record<string, unknown>>(path: string, body: unknown, token?: string) => call<T>(h.api, path, { body, ...(token === undefined ? {} : { token }) });
const del = (path: string, token?: string) => call(h.api, path, { method: 'DELETE', ...(token === undefined ? {} : { token }) });

type AdminUser = { id: string; role: string; trial: { expires_at: string; expired: boolean; quota: number | null; used: number; remaining: number | null } | null };
const adminView = async (id: string) => (await get<{ data: AdminUser[] }>('/admin/users')).body.data.find((u) => u.id === id);

/** Ends a trial now, as the clock would. */
function expire(p: Person) {
  h.core.db.prepare("UPDATE user_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?").run(p.id);
}

/** The requests the upstream received while `fn` ran. */
async function upstreamCalls(fn: () => Promise<unknown>): Promise<number> {
  const before = h.upstream.requests.length;
  await fn();
  return h.upstream.requests.length - before;
}

let echoModel: string;
let toolModel: string;
let village: { id: string };
beforeAll(async () => {
  h = await startChatHarness();
  echoModel = await h.addModel('Echo', 'echo');
  toolModel = await h.addModel('Tooly', 'tool', { capabilities: { strengths: ['agentic'], quality: 6 } });
  // The owner's dataset: everyone in the organization may read it and ask agents about it.
  village = await h.dataset('Village', VILLAGE_DOCS);
});
afterAll(() => h.close());

describe('a trial user cannot escape expiry or quota (issue 10, item 1)', () => {
  it('a user token cannot mint an API key (403), whatever its quota', async () => {
    const t = await trial(h.api, { quota: 1 });
    const res = await post<{ code: string; detail: string }>('/api-keys', { name: 'escape' }, t.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(res.body.detail).toMatch(/trial/i);
    expect((await get<{ data: unknown[] }>('/api-keys', t.key)).body.data).toEqual([]);
    // Nor may an admin hand one out, nor create a "trial" user that comes with a key.
    expect((await post(`/admin/users/${t.id}/api-keys`, { name: 'for them' })).status).toBe(403);
    expect((await post('/admin/users', { email: 'sneaky@example.com', name: 'Sneaky', role: 'trial' })).status).toBe(400);
  });

  it('a key minted before the fix stops with the token: it spends the same quota and dies at expiry', async () => {
    const t = await trial(h.api, { quota: 2 });
    // As an older version let a trial user do: a pk_ key of theirs, unbounded.
    const { key } = issueApiKey(h.core.repos, h.core.runtime.credentials, t.id, 'minted earlier', new Date().toISOString());
    expect((await get('/me', key)).status).toBe(200);
    expect((await post('/chat', { message: 'one' }, key)).status).toBe(200);
    expect((await post('/chat', { message: 'two' }, t.key)).status).toBe(200);
    // The quota is shared: the key cannot make a third model call either.
    expect((await post<{ code: string }>('/chat', { message: 'three' }, key)).body.code).toBe('rate_limited');
    expire(t);
    for (const token of [key, t.key]) {
      const res = await get<{ code: string }>('/me', token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });

  it('the quota counts model calls — chat, /v1 completions, each model of a comparison, each agent step — never page reads', async () => {
    const t = await trial(h.api, { quota: 6 });
    // The home page's own reads, twice over: nothing spent.
    const pages = ['/me', '/models', '/threads', '/datasets', '/features', '/suggestions/prompts', '/suggestions/datasets', '/workflows'];
    for (let round = 0; round < 2; round++) for (const path of pages) expect((await get(path, t.key)).status, path).toBe(200);
    expect((await adminView(t.id))?.trial).toMatchObject({ quota: 6, used: 0, remaining: 6, expired: false });

    expect((await post('/chat', { message: 'hello', model_endpoint_override: echoModel }, t.key)).status).toBe(200);
    expect((await adminView(t.id))?.trial?.used).toBe(1);

    const v1 = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: echoModel, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(v1.status).toBe(200);
    expect((await adminView(t.id))?.trial?.used).toBe(2);

    const compared = await post<{ responses: { status: string }[] }>('/comparisons', { prompt: 'compare', model_ids: [echoModel, 'mdl_extractive'] }, t.key);
    expect(compared.status).toBe(201);
    expect((await adminView(t.id))?.trial?.used).toBe(4);

    // An agent: each of its model turns is a call (the tool model calls a tool, then answers).
    const steps = await upstreamCalls(async () => {
      const res = await post<{ message: { status: string } }>('/chat', { message: 'lighthouse lamp', dataset_ids: [village.id], agentic: true, model_endpoint_override: toolModel }, t.key);
      expect(res.status).toBe(200);
    });
    expect(steps).toBe(2);
    expect((await adminView(t.id))?.trial).toMatchObject({ used: 6, remaining: 0 });

    const refused = await post<{ code: string; detail: string }>('/chat', { message: 'more' }, t.key);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    expect(refused.body.detail).toMatch(/quota of 6 model calls/);
    const v1Refused = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'auto', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(v1Refused.status).toBe(429);
    expect((await post('/comparisons', { prompt: 'again', model_ids: [echoModel, 'mdl_extractive'] }, t.key)).status).toBe(429);
    // Reading stays open, and the model's health is not blamed for the trial's limit.
    expect((await get('/threads', t.key)).status).toBe(200);
    const models = await get<{ data: { id: string; status: string }[] }>('/models');
    expect(models.body.data.find((m) => m.id === echoModel)?.status).toBe('available');
  });

  it('an agent that runs out of quota mid-answer stops with rate_limited, the steps so far kept', async () => {
    const t = await trial(h.api, { quota: 1 });
    const res = await post<{ thread_id: string; message: { status: string; id: string; thoughts: { kind: string }[] } }>(
      '/chat',
      { message: 'lighthouse lamp', dataset_ids: [village.id], agentic: true, model_endpoint_override: toolModel },
      t.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.message.status).toBe('error');
    // The first turn ran (the model asked for a search, and it ran); the second was refused.
    expect(res.body.message.thoughts.map((th) => th.kind)).toContain('tool_call');
    const messages = await get<{ data: { id: string; error: { code: string; detail: string } | null }[] }>(`/threads/${res.body.thread_id}/messages`, t.key);
    expect(messages.body.data.at(-1)?.error).toMatchObject({ code: 'rate_limited', detail: expect.stringMatching(/quota of 1 model call\b/) });
    expect((await adminView(t.id))?.trial).toMatchObject({ used: 1, remaining: 0 });
  });

  it('disabling a user ends every credential they hold, user token included', async () => {
    const t = await trial(h.api);
    const m = await person(h.api, 'member');
    for (const p of [t, m]) {
      expect((await get('/me', p.key)).status).toBe(200);
      expect((await call(h.api, `/admin/users/${p.id}`, { method: 'PATCH', body: { disabled: true } })).status).toBe(200);
      expect((await get('/me', p.key)).status).toBe(403);
      expect((await post('/chat', { message: 'still here?' }, p.key)).status).toBe(403);
    }
  });
});

describe('admins see and revoke any user’s keys (issue 10, item 1)', () => {
  it('lists a user’s keys without the secrets, issues a new one shown once, and revokes one at once', async () => {
    const m = await person(h.api, 'member');
    const issued = await post<{ id: string; key: string; prefix: string }>(`/admin/users/${m.id}/api-keys`, { name: 'replacement' });
    expect(issued.status).toBe(201);
    expect(issued.body.key).toMatch(/^pk_[A-Za-z0-9]{32}$/);
    expect(issued.body.prefix).toBe(issued.body.key.slice(0, 7));
    expect((await get<{ user: { id: string } }>('/me', issued.body.key)).body.user.id).toBe(m.id);

    const listed = await get<{ data: { id: string; name: string; prefix: string }[] }>(`/admin/users/${m.id}/api-keys`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k) => k.name).sort()).toEqual(['First key', 'replacement']);
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.key);
    expect(JSON.stringify(listed.body)).not.toContain(m.key);

    const first = listed.body.data.find((k) => k.name === 'First key');
    expect((await del(`/admin/users/${m.id}/api-keys/${first?.id}`)).status).toBe(204);
    expect((await get('/me', m.key)).status).toBe(401);
    expect((await get('/me', issued.body.key)).status).toBe(200);
    expect((await del(`/admin/users/${m.id}/api-keys/${first?.id}`)).status).toBe(404);
  });

  it('a member cannot use them (403), and a key id of another user is 404 under this user', async () => {
    const a = await person(h.api, 'member');
    const b = await person(h.api, 'member');
    expect((await get(`/admin/users/${b.id}/api-keys`, a.key)).status).toBe(403);
    expect((await del(`/admin/users/${b.id}/api-keys/key_abc`, a.key)).status).toBe(403);
    const bKeys = (await get<{ data: { id: string }[] }>(`/admin/users/${b.id}/api-keys`)).body.data;
    expect((await del(`/admin/users/${a.id}/api-keys/${bKeys[0]?.id}`)).status).toBe(404);
    expect((await get('/me', b.key)).status).toBe(200);
  });
});

describe('organizations are kept apart (issue 10, item 12)', () => {
  it('org B never sees or uses org A’s models, overrides or keys', async () => {
    const b = secondOrganization(h.core);
    const aUser = await person(h.api, 'member');
    const aWorkspace = aUser.workspace_id;
    expect((await call(h.api, `/workspaces/${aWorkspace}/model-overrides/${echoModel}`, { method: 'PUT', body: { endpoint_url: h.upstream.openaiBaseUrl } })).status).toBe(200);

    const models = await get<{ data: { id: string }[] }>('/models', b.key);
    expect(models.status).toBe(200);
    expect(models.body.data.map((m) => m.id)).toEqual(['mdl_extractive']);
    const v1Models = (await (await fetch(`${h.url}/v1/models`, { headers: { authorization: `Bearer ${b.key}` } })).json()) as { data: { id: string }[] };
    expect(v1Models.data.map((m) => m.id)).not.toContain(echoModel);

    const before = h.upstream.requests.length;
    expect((await post('/chat', { message: 'use theirs', model_endpoint_override: echoModel }, b.key)).status).toBe(404);
    const v1 = await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: echoModel, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(v1.status).toBe(404);
    expect((await post('/comparisons', { prompt: 'x', model_ids: [echoModel, 'mdl_extractive'] }, b.key)).status).toBe(400);
    expect(h.upstream.requests.length).toBe(before);
    // Dynamic routing in org B only ever picks org B's models.
    const routed = await post<{ message: { model_id: string } }>('/chat', { message: 'hello there' }, b.key);
    expect(routed.body.message.model_id).toBe('mdl_extractive');

    // Their overrides, their models as override targets, their model admin.
    expect((await get(`/workspaces/${aWorkspace}/model-overrides`, b.key)).status).toBe(404);
    expect((await call(h.api, `/workspaces/${b.workspace_id}/model-overrides/${echoModel}`, { method: 'PUT', token: b.key, body: { endpoint_url: 'http://127.0.0.1:9/v1' } })).status).toBe(404);
    expect((await del(`/models/${echoModel}`, b.key)).status).toBe(404);
    expect((await post(`/models/${echoModel}/test`, {}, b.key)).status).toBe(404);

    // Their users' keys.
    const aKeys = (await get<{ data: { id: string }[] }>(`/admin/users/${aUser.id}/api-keys`)).body.data;
    expect((await get(`/admin/users/${aUser.id}/api-keys`, b.key)).status).toBe(404);
    expect((await post(`/admin/users/${aUser.id}/api-keys`, { name: 'takeover' }, b.key)).status).toBe(404);
    expect((await del(`/admin/users/${aUser.id}/api-keys/${aKeys[0]?.id}`, b.key)).status).toBe(404);
    expect((await call(h.api, `/admin/users/${aUser.id}`, { method: 'PATCH', token: b.key, body: { disabled: true } })).status).toBe(404);
    expect((await get('/me', aUser.key)).status).toBe(200);

    // And the other way: a model org B registers is B's alone.
    const bModel = await post<{ id: string }>('/models', { name: 'B only', provider: 'openai_compatible', endpoint_url: h.upstream.openaiBaseUrl, model: 'echo' }, b.key);
    expect(bModel.status).toBe(201);
    expect((await get<{ data: { id: string }[] }>('/models')).body.data.map((m) => m.id)).not.toContain(bModel.body.id);
    expect((await get<{ data: { id: string }[] }>('/models', b.key)).body.data.map((m) => m.id)).toContain(bModel.body.id);
  });
});
