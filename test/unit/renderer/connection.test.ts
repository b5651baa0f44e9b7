/**
 * The browser connection ends the session when the key it uses is refused (revoked elsewhere), and
 * only then: a call sent with a key that a sign-in link has since replaced and revoked is refused
 * too, and must not sign the new key out (the race `test/e2e/first-run.test.ts` "a later start" hit
 * under load). Real service over real HTTP; the renderer's own connection code.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type BrowserConnection } from '../../../renderer/src/api/connection.js';
import { startTestHttp, TEST_ADMIN_KEY } from '../../support/core.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** What a page's `window` offers the connection: its address and a storage. */
function pageAt(url: string, stored: string): Window {
  const items = new Map<string, string>([['parley.apiKey', stored]]);
  const localStorage = {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
  return { location: { href: `${url}/` }, localStorage } as unknown as Window;
}

async function twoKeys() {
  const h = await startTestHttp();
  cleanups.push(h.close);
  const create = async (name: string) => {
    const res = await h.api('/api-keys', { method: 'POST', body: JSON.stringify({ name }) });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; key: string };
  };
  return { h, old: await create('Browser sign-in'), current: await create('Another') };
}

describe('browser connection: a refused key', () => {
  it('signs out when the key still in use is refused', async () => {
    const { h, old } = await twoKeys();
    const connection = connect(pageAt(h.url, old.key)) as BrowserConnection;
    let signedOut = 0;
    connection.onUnauthenticated(() => signedOut++);
    expect((await h.api(`/api-keys/${old.id}`, { method: 'DELETE', token: TEST_ADMIN_KEY })).status).toBe(204);
    await expect(connection.client.call('identity.me', {})).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(signedOut).toBe(1);
  });

  it('does not sign out when the refused call was sent with a key replaced since', async () => {
    const { h, old, current } = await twoKeys();
    const connection = connect(pageAt(h.url, old.key)) as BrowserConnection;
    let signedOut = 0;
    connection.onUnauthenticated(() => signedOut++);
    expect((await h.api(`/api-keys/${old.id}`, { method: 'DELETE', token: TEST_ADMIN_KEY })).status).toBe(204);
    // Sent with the old key; the new one is stored before the refusal comes back.
    const late = connection.client.call('identity.me', {});
    connection.storeToken(current.key);
    await expect(late).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(signedOut).toBe(0);
    expect(connection.storedToken()).toBe(current.key);
    await expect(connection.client.call('identity.me', {})).resolves.toMatchObject({ user: expect.anything() });
  });
});
