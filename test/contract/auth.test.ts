import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacySha256 } from '../../main/core/platform/auth/credential-hash.js';
import { newId, newSecret } from '../../main/core/platform/ids.js';
import { API_VERSION } from '../../shared/api-version.js';
import { TEST_ADMIN_KEY, testStorage, startTestHttp } from '../support/core.js';
import { request as httpRequest } from 'node:http';

let h: Awaited<ReturnType<typeof startTestHttp>>;
beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(() => h.close());

async function problem(res: Response) {
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await res.json()) as { code: string; status: number; detail: string; title: string; type: string };
}

/** fetch() will not send a forged Host header, so this goes through node:http. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('authentication', () => {
  it('an API key acts as its owner: the seeded owner is a super admin with an organization', async () => {
    const res = await h.api('/me');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { user: { role: string; organization: { id: string; name: string } }; workspace: { id: string } };
    expect(body.user.role).toBe('super_admin');
    expect(body.user.organization).toEqual({ id: expect.stringMatching(/^org_/), name: 'Personal' });
    expect(body.workspace.id).toMatch(/^wsp_/);
  });

  it('no token, a malformed header or an unknown key → 401 problem+json with a code', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Basic abc' }, { authorization: 'Bearer pk_unknownunknownunknown' }, { authorization: 'Bearer hello' }]) {
      const res = await fetch(`${h.url}/api/me`, { headers });
      expect(res.status).toBe(401);
      const body = await problem(res);
      expect(body).toMatchObject({ code: 'unauthenticated', status: 401, type: 'urn:parley:problem:unauthenticated' });
      expect(body.detail.length).toBeGreaterThan(10);
    }
  });

  it('health needs no token', async () => {
    const res = await h.api('/health', { token: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', storage: testStorage(), instance: expect.stringMatching(/^inst_[0-9a-f]{12}$/) });
  });

  it('every response carries Parley-Api-Version, errors included', async () => {
    for (const res of [await h.api('/health'), await h.api('/me', { token: null }), await h.api('/nowhere')]) {
      expect(res.headers.get('parley-api-version')).toBe(API_VERSION);
    }
  });

  it('refuses a Host that is not a loopback name (DNS rebinding), and accepts loopback names', async () => {
    const evil = await getWithHost(`${h.url}/api/health`, 'evil.example');
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ code: 'forbidden' });
    const port = new URL(h.url).port;
    expect((await getWithHost(`${h.url}/api/health`, `evil.example:${port}`)).status).toBe(403);
    expect((await getWithHost(`${h.url}/api/health`, `localhost:${port}`)).status).toBe(200);
    expect((await getWithHost(`${h.url}/api/health`, `127.0.0.1:${port}`)).status).toBe(200);
  });

  it('a deprecated access token still works, flagged with Deprecation and a Link', async () => {
    const token = newSecret('at');
    const owner = h.core.desktopCaller().user;
    // Stored as installs before migration 150 did (bare SHA-256): accepted once the old way, then rehashed.
    h.core.repos.credentials.insertAccessToken({ id: newId('atk'), user_id: owner.id, secret_hash: legacySha256(token), hash_kind: 'sha256', created_at: new Date().toISOString() });
    const res = await h.api('/me', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toMatch(/rel="deprecation"/);
    expect(((await res.json()) as { user: { id: string } }).user.id).toBe(owner.id);
    // An API key is not deprecated.
    expect((await h.api('/me')).headers.get('deprecation')).toBeNull();
  });

  it('a user token onboards a trial user; its quota counts model calls, never page reads', async () => {
    const res = await h.api('/admin/user-tokens', { method: 'POST', body: JSON.stringify({ email: 'Trial@Example.com', expires_in: 3600, quota: 2 }) });
    expect(res.status).toBe(201);
    const { token, user } = (await res.json()) as { token: string; user: { role: string; email: string } };
    expect(token).toMatch(/^ut_/);
    expect(user).toMatchObject({ role: 'trial', email: 'trial@example.com' });
    for (let i = 0; i < 5; i++) expect((await h.api('/me', { token })).status).toBe(200);
    // A trial user sees what is left of their quota; nobody else has a trial.
    const trialOf = async (t?: string) => ((await (await h.api('/me', t === undefined ? {} : { token: t })).json()) as { trial: unknown }).trial;
    expect(await trialOf(token)).toMatchObject({ quota: 2, used: 0, remaining: 2 });
    expect(await trialOf()).toBeNull();
    for (let i = 0; i < 2; i++) {
      const answered = await h.api('/chat', { method: 'POST', token, body: JSON.stringify({ message: 'hello' }) });
      expect(answered.status).toBe(200);
      await answered.text();
    }
    expect(await trialOf(token)).toMatchObject({ quota: 2, used: 2, remaining: 0 });
    const spent = await h.api('/chat', { method: 'POST', token, body: JSON.stringify({ message: 'hello' }) });
    expect(spent.status).toBe(429);
    expect(await problem(spent)).toMatchObject({ code: 'rate_limited' });
    // Reading stays open once the quota is spent.
    expect((await h.api('/threads', { token })).status).toBe(200);
    // A trial user is not an admin.
    const admin = await h.api('/admin/users', { token });
    expect(admin.status).toBe(403);
  });

  it('a super admin ends a trial at once: its token stops working, and the user shows the trial ended', async () => {
    const issued = (await (await h.api('/admin/user-tokens', { method: 'POST', body: JSON.stringify({ expires_in: 86_400, quota: 10 }) })).json()) as { token: string; user: { id: string } };
    expect((await h.api('/me', { token: issued.token })).status).toBe(200);
    const ended = await h.api(`/admin/users/${issued.user.id}/trial`, { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(((await ended.json()) as { trial: unknown }).trial).toMatchObject({ expired: true });
    expect((await h.api('/me', { token: issued.token })).status).toBe(401);
    // Only a trial can end, and only a super admin ends one.
    const owner = h.core.desktopCaller().user.id;
    expect(await problem(await h.api(`/admin/users/${owner}/trial`, { method: 'DELETE' }))).toMatchObject({ code: 'conflict' });
    const other = (await (await h.api('/admin/user-tokens', { method: 'POST', body: JSON.stringify({ expires_in: 86_400 }) })).json()) as { token: string; user: { id: string } };
    expect((await h.api(`/admin/users/${other.user.id}/trial`, { method: 'DELETE', token: other.token })).status).toBe(403);
  });

  it('an expired user token → 401', async () => {
    const res = await h.api('/admin/user-tokens', { method: 'POST', body: JSON.stringify({ expires_in: 60 }) });
    const { token } = (await res.json()) as { token: string };
    const row = h.core.repos.credentials.findUserToken(h.core.runtime.credentials.hash(token), 'hmac_sha256');
    expect(row).toBeDefined();
    h.core.db.prepare('UPDATE user_tokens SET expires_at = ? WHERE id = ?').run('2000-01-01T00:00:00.000Z', row?.id);
    const expired = await h.api('/me', { token });
    expect(expired.status).toBe(401);
    expect((await problem(expired)).detail).toMatch(/expired/);
  });
});

describe('API keys', () => {
  it('are created (key shown once), listed without the key, and revoked at once', async () => {
    const created = await h.api('/api-keys', { method: 'POST', body: JSON.stringify({ name: 'laptop script' }) });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; key: string; prefix: string; name: string };
    expect(key.key).toMatch(/^pk_[A-Za-z0-9]{32}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const me = await h.api('/me', { token: key.key });
    expect(me.status).toBe(200);

    const listed = await h.api('/api-keys');
    const text = await listed.text();
    expect(text).not.toContain(key.key);
    expect(JSON.parse(text).data.map((k: { id: string }) => k.id)).toContain(key.id);

    const del = await h.api(`/api-keys/${key.id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect((await h.api('/me', { token: key.key })).status).toBe(401);
    const again = await h.api(`/api-keys/${key.id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('one user cannot revoke another user’s key', async () => {
    const member = (await (await h.api('/admin/users', { method: 'POST', body: JSON.stringify({ email: 'm1@example.com', name: 'Mia' }) })).json()) as {
      api_key: { id: string; key: string };
    };
    const ownerKeys = (await (await h.api('/api-keys')).json()) as { data: { id: string }[] };
    const target = ownerKeys.data[0]?.id;
    const res = await h.api(`/api-keys/${target}`, { method: 'DELETE', token: member.api_key.key });
    expect(res.status).toBe(404);
    expect((await h.api('/me', { token: TEST_ADMIN_KEY })).status).toBe(200);
  });
});
