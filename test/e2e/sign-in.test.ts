import { describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { startOidcProvider } from '../fixtures/oidc-provider.js';

const suite = e2eSuite();
const open = (hash = '') => suite.open(hash);

async function createMember(name: string, email: string): Promise<string> {
  const response = await suite.served.api('/admin/users', { body: { name, email, role: 'member' } });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { user: { role: string }; api_key: { key: string } };
  expect(body.user.role).toBe('member');
  return body.api_key.key;
}

describe('signing in with an API key (served mode)', () => {
  it('asks for an API key when the browser has none', async () => {
    const page = await open();
    await visible(page.getByRole('heading', { level: 1, name: 'Sign in to Parley' }));
    await visible(page.getByLabel('API key'));
    await eventually(() => page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await inspectPage(page, 'sign-in')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('refuses a bad key with a clear error and keeps nothing', async () => {
    const page = await open();
    await page.getByLabel('API key').fill('pk_ThisKeyDoesNotExist0123456789ab');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const error = await visible(page.getByRole('alert'));
    await eventually(() => error.textContent()).toMatch(/not accepted/);
    await eventually(() => page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toBeNull();
    expect(await inspectPage(page, 'sign-in-bad-key')).toEqual([]);

    await page.getByLabel('API key').fill('');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await eventually(() => page.getByRole('alert').textContent()).toMatch(/Paste an API key/);
    expect(pageProblems(page)).toEqual([]);
  });

  it("shows the owner's name and organization and the Admin link, keeps the key, and signs out", async () => {
    const me = (await (await suite.served.api('/me')).json()) as { user: { name: string; organization: { name: string } } };
    expect(me.user.organization.name).toBe('Personal');

    const page = await open();
    await signIn(page, `  ${suite.served.apiKey}\n`);
    await eventually(() => page.getByTestId('account-name').textContent()).toBe(me.user.name);
    await eventually(() => page.getByTestId('account-org').textContent()).toBe('Personal');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await eventually(() => nav.getByRole('link').allTextContents()).toEqual(['Chat', 'Datasets', 'Compare', 'Settings', 'Admin']);
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toBe(suite.served.apiKey);
    await eventually(() => mainNavLink(page, 'Chat').getAttribute('aria-current')).toBe('page');

    // The key survives a reload: still signed in, no sign-in form.
    await page.reload();
    await visible(page.getByRole('navigation', { name: 'Main' }));
    await eventually(() => page.getByLabel('API key').count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await visible(page.getByRole('heading', { name: 'Sign in to Parley' }));
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toBeNull();
    expect(pageProblems(page)).toEqual([]);
  });

  it('gives a member no Admin link, and tells them they may not open #/admin', async () => {
    const key = await createMember('Mina Member', 'mina@example.com');
    const page = await open();
    await signIn(page, key);
    await eventually(() => page.getByTestId('account-name').textContent()).toBe('Mina Member');
    await eventually(() => page.getByTestId('account-org').textContent()).toBe('Personal');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await eventually(() => nav.getByRole('link').allTextContents()).toEqual(['Chat', 'Datasets', 'Compare', 'Settings']);

    await page.goto(`${suite.served.url}/#/admin`);
    await visible(page.getByRole('heading', { name: 'You don’t have access to this page' }));
    await eventually(() => page.getByRole('main').textContent()).toMatch(/Only super admins can open Admin/);
    await eventually(() => page.getByRole('table').count()).toBe(0);
    expect(await inspectPage(page, 'admin-forbidden')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('signs in through the team’s identity provider ([auth.oidc]) as the user its groups make', async () => {
    const provider = await startOidcProvider({ accounts: [{ login: 'erin', email: 'erin@team.example', name: 'Erin Example', groups: ['parley-admins'] }] });
    provider.allowRedirect(`${suite.served.url}/api/auth/oidc/callback`);
    const before = (await (await suite.served.api('/admin/config')).json()) as { toml: string; version: number };
    const oidc = `[auth.oidc]\nissuer = "${provider.issuer}"\nname = "Team SSO"\nclient_id = "${provider.clientId}"\nclient_secret = "${provider.clientSecret}"\n`;
    const toml = before.toml.replace('[auth.oidc]\n', oidc).replace('roles = {}', 'roles = { "parley-admins" = "admin" }');
    const saved = await suite.served.api('/admin/config', { method: 'PUT', body: { toml, base_version: before.version } });
    expect(saved.status).toBe(200);
    try {
      // A return from the provider that Parley did not start ends on the sign-in page, saying so.
      const page = await open();
      await page.goto(`${suite.served.url}/api/auth/oidc/callback?code=x&state=forged`);
      await eventually(() => page.getByRole('alert').textContent()).toMatch(/could not be finished/);
      await page.getByRole('link', { name: 'Sign in with Team SSO' }).click();
      // The provider's own login and consent pages (node-oidc-provider's development ones).
      await page.locator('input[name="login"]').fill('erin');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await eventually(() => page.getByTestId('account-name').textContent()).toBe('Erin Example');
      await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toMatch(/^pk_/);
    } finally {
      const now = (await (await suite.served.api('/admin/config')).json()) as { version: number };
      await suite.served.api('/admin/config', { method: 'PUT', body: { toml: before.toml, base_version: now.version } });
      await provider.close();
    }
  });

  it('signs out, with a reason, when the stored key stops working', async () => {
    const key = await createMember('Rita Revoked', 'rita@example.com');
    const context = await suite.newContext();
    const before = await suite.open('', { context });
    await signIn(before, key);
    // The tab is closed while the key is revoked: an open one would itself meet the refusal (the
    // home screen polls) and sign out in place, a race with the revocation that a loaded machine
    // loses. The next visit, with the key still stored, must find out and say why.
    await before.close();
    const keys = (await (await suite.served.api('/api-keys', { token: key })).json()) as { data: { id: string }[] };
    for (const { id } of keys.data) expect((await suite.served.api(`/api-keys/${id}`, { method: 'DELETE', token: key })).status).toBe(204);

    const page = await suite.open('', { context });
    const notice = await visible(page.getByRole('status').filter({ hasText: 'stopped working' }));
    await eventually(() => notice.textContent()).toMatch(/revoked/);
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toBeNull();
    expect(pageProblems(page)).toEqual([]);
  });
});
