import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSignInCode } from '../../main/core/platform/auth/sign-in-code.js';
import { CONFIG_FILE } from '../../main/core/platform/config/load.js';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { startTestHttp, tempDir } from '../support/core.js';
import { startOidcProvider, type TestOidcProvider } from '../fixtures/oidc-provider.js';

/** Cookies per origin, as a browser keeps them across the provider's redirects. */
class CookieJar {
  private readonly jar = new Map<string, Map<string, string>>();
  store(url: string, res: Response) {
    const cookies = this.jar.get(new URL(url).origin) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    this.jar.set(new URL(url).origin, cookies);
  }
  header(url: string) {
    return [...(this.jar.get(new URL(url).origin) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

describe('OpenID Connect sign-in ([auth.oidc])', () => {
  let provider: TestOidcProvider;
  let h: Awaited<ReturnType<typeof startTestHttp>>;
  let removeDir: () => void;

  beforeAll(async () => {
    provider = await startOidcProvider({
      accounts: [
        { login: 'ada', email: 'ada@team.example', name: 'Ada Lovelace', groups: ['staff', 'parley-admins', 'research'] },
        { login: 'bob', email: 'bob@team.example', name: 'Bob', groups: ['staff'] },
        { login: 'carol', email: 'carol@team.example', name: 'Carol', groups: ['staff'] },
      ],
    });
    const { dir, remove } = tempDir();
    removeDir = remove;
    const oidc = [
      '[auth.oidc]',
      `issuer = "${provider.issuer}"`,
      'name = "Team SSO"',
      `client_id = "${provider.clientId}"`,
      // The real secret comes from PARLEY_OIDC_CLIENT_SECRET (set below), overriding this one.
      'client_secret = "not-the-secret-the-environment-has-it"',
      'scopes = ["openid", "profile", "email", "groups"]',
      'groups_claim = "groups"',
      'create_users = true',
      'roles = { "parley-admins" = "admin" }',
      'organizations = { "research" = "Research" }',
    ].join('\n');
    const toml = CONFIG_TEMPLATE.slice(0, CONFIG_TEMPLATE.indexOf('[auth.oidc]')) + oidc + '\n\n' + CONFIG_TEMPLATE.slice(CONFIG_TEMPLATE.indexOf('[ui]'));
    writeFileSync(join(dir, CONFIG_FILE), toml);
    process.env.PARLEY_OIDC_CLIENT_SECRET = provider.clientSecret;
    h = await startTestHttp({ dataDir: dir });
    provider.allowRedirect(`${h.url}/api/auth/oidc/callback`);
  });
  afterAll(async () => {
    delete process.env.PARLEY_OIDC_CLIENT_SECRET;
    await h.close();
    await provider.close();
    removeDir();
  });

  /** Parley's start redirect, then the provider's login and consent pages as a browser would, up to (not into) Parley's callback. */
  async function throughProvider(login: string): Promise<URL> {
    const jar = new CookieJar();
    const start = await fetch(`${h.url}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    let url = new URL(start.headers.get('location') ?? '', h.url).toString();
    expect(url.startsWith(provider.issuer)).toBe(true);
    let body: URLSearchParams | undefined;
    for (let hops = 0; hops < 20; hops++) {
      if (url.startsWith(h.url)) return new URL(url);
      const res = await fetch(url, { redirect: 'manual', method: body ? 'POST' : 'GET', headers: { cookie: jar.header(url), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, ...(body ? { body } : {}) });
      jar.store(url, res);
      body = undefined;
      if (res.status >= 300 && res.status < 400) {
        url = new URL(res.headers.get('location') ?? '', url).toString();
        continue;
      }
      const html = await res.text();
      expect(res.status, html).toBe(200);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      expect(action, html).toBeDefined();
      url = new URL(action ?? '', url).toString();
      body = html.includes('name="prompt" value="login"') ? new URLSearchParams({ prompt: 'login', login, password: 'any' }) : new URLSearchParams({ prompt: 'consent' });
    }
    throw new Error('the provider never sent the browser back');
  }

  /** The whole sign-in: where Parley's callback sends the browser. */
  async function signIn(login: string): Promise<string> {
    const callback = await throughProvider(login);
    const res = await fetch(callback, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return res.headers.get('location') ?? '';
  }

  async function redeem(location: string) {
    const code = /^\/#\/sign-in\/([A-Za-z0-9_-]+)$/.exec(location)?.[1];
    expect(code, location).toBeDefined();
    const res = await h.api('/sign-in-codes/redeem', { method: 'POST', body: JSON.stringify({ code }), token: null });
    expect(res.status).toBe(201);
    return ((await res.json()) as { key: string }).key;
  }

  const me = async (key: string) =>
    ((await (await h.api('/me', { token: key })).json()) as { user: { id: string; email: string; name: string; role: string; organization: { name: string } } }).user;

  it('is offered on the sign-in page by its name, without a token', async () => {
    const ui = (await (await h.api('/ui', { token: null })).json()) as { oidc: { name: string; start_url: string } | null };
    expect(ui.oidc).toEqual({ name: 'Team SSO', start_url: '/api/auth/oidc/start' });
  });

  it('creates the user with the role and organization their groups map to, signed in with an API key (client secret from PARLEY_OIDC_CLIENT_SECRET over the file)', async () => {
    const key = await redeem(await signIn('ada'));
    const user = await me(key);
    expect(user).toMatchObject({ email: 'ada@team.example', name: 'Ada Lovelace', role: 'admin', organization: { name: 'Research' } });

    // A second sign-in is the same user, not a new one.
    const again = await me(await redeem(await signIn('ada')));
    expect(again.id).toBe(user.id);
  });

  it('gives a user no group maps a member of the owner’s organization', async () => {
    const user = await me(await redeem(await signIn('bob')));
    const owner = await me('pk_TestOwnerKey0123456789abcdef');
    expect(user).toMatchObject({ email: 'bob@team.example', role: 'member', organization: { name: owner.organization.name } });
  });

  it('keeps each sign-in’s code apart: several at once each work once, and served mode’s link still works', async () => {
    const [ada, bob] = [await signIn('ada'), await signIn('bob')];
    const link = issueSignInCode(h.core.repos, h.core.owner.userId, new Date()).code;
    expect((await me(await redeem(bob))).email).toBe('bob@team.example');
    expect((await me(await redeem(ada))).email).toBe('ada@team.example');
    expect((await me(await redeem(`/#/sign-in/${link}`))).role).toBe('super_admin');
    const again = await h.api('/sign-in-codes/redeem', { method: 'POST', body: JSON.stringify({ code: /[^/]+$/.exec(ada)?.[0] }), token: null });
    expect(again.status).toBe(401);
  });

  it('with create_users = false, refuses someone Parley does not know yet and still signs in those it does', async () => {
    const before = (await (await h.api('/admin/config')).json()) as { toml: string; version: number };
    const put = await h.api('/admin/config', { method: 'PUT', body: JSON.stringify({ toml: before.toml.replace('create_users = true', 'create_users = false'), base_version: before.version }) });
    expect(put.status).toBe(200);
    try {
      expect(await signIn('carol')).toBe('/#/sign-in-error/unknown_user');
      expect((await me(await redeem(await signIn('ada')))).email).toBe('ada@team.example');
    } finally {
      const now = (await (await h.api('/admin/config')).json()) as { version: number };
      await h.api('/admin/config', { method: 'PUT', body: JSON.stringify({ toml: before.toml, base_version: now.version }) });
    }
  });

  it('refuses a tampered state on the sign-in page, with a reason, not an error page', async () => {
    const callback = await throughProvider('ada');
    callback.searchParams.set('state', `${callback.searchParams.get('state') ?? ''}x`);
    const res = await fetch(callback, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/#/sign-in-error/state');
    // No state at all, and the provider's own refusal, end the same way.
    const bare = await fetch(`${h.url}/api/auth/oidc/callback?code=x`, { redirect: 'manual' });
    expect(bare.headers.get('location')).toBe('/#/sign-in-error/state');
  });
});
