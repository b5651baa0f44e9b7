import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHttp } from '../support/core.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;
beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(() => h.close());

const post = (path: string, body: unknown, token?: string) => h.api(path, { method: 'POST', body: JSON.stringify(body), ...(token ? { token } : {}) });

describe('admin users', () => {
  it('a super admin creates a member, who gets a first key shown once and acts as themselves', async () => {
    const res = await post('/admin/users', { email: 'ana@example.com', name: 'Ana' });
    expect(res.status).toBe(201);
    const { user, api_key } = (await res.json()) as { user: { id: string; role: string; organization: { name: string } }; api_key: { key: string } };
    expect(user).toMatchObject({ role: 'member', organization: { name: 'Personal' } });
    const me = (await (await h.api('/me', { token: api_key.key })).json()) as { user: { id: string; role: string } };
    expect(me.user).toMatchObject({ id: user.id, role: 'member' });
  });

  it('members get 403 on every admin operation', async () => {
    const { api_key } = (await (await post('/admin/users', { email: 'bo@example.com', name: 'Bo' })).json()) as { api_key: { key: string } };
    for (const res of [
      await h.api('/admin/users', { token: api_key.key }),
      await post('/admin/users', { email: 'x@example.com', name: 'X' }, api_key.key),
      await post('/admin/user-tokens', { expires_in: 3600 }, api_key.key),
    ]) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('forbidden');
    }
  });

  it('a duplicate email → 409; a bad email → 400 naming the field', async () => {
    await post('/admin/users', { email: 'cy@example.com', name: 'Cy' });
    const dup = await post('/admin/users', { email: 'CY@example.com', name: 'Cy again' });
    expect(dup.status).toBe(409);
    const bad = await post('/admin/users', { email: 'not-an-email', name: 'Z' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('email');
  });

  it('disabling a user stops their keys; a super admin cannot disable themselves', async () => {
    const { user, api_key } = (await (await post('/admin/users', { email: 'di@example.com', name: 'Di' })).json()) as {
      user: { id: string };
      api_key: { key: string };
    };
    const patched = await h.api(`/admin/users/${user.id}`, { method: 'PATCH', body: JSON.stringify({ disabled: true }) });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { disabled: boolean }).disabled).toBe(true);
    expect((await h.api('/me', { token: api_key.key })).status).toBe(403);

    const self = h.core.desktopCaller().user.id;
    const refused = await h.api(`/admin/users/${self}`, { method: 'PATCH', body: JSON.stringify({ disabled: true }) });
    expect(refused.status).toBe(409);
    expect((await h.api('/me')).status).toBe(200);
  });

  it('lists the organization’s users', async () => {
    const res = await h.api('/admin/users');
    const { data } = (await res.json()) as { data: { email: string }[] };
    expect(data.map((u) => u.email)).toEqual(expect.arrayContaining(['owner@localhost', 'ana@example.com']));
  });
});
