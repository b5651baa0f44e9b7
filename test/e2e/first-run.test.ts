import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServed } from '../support/served.js';
import { e2eSuite, mainNavLink, pageProblems, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';
import { eventually } from './support/eventually.js';

// A new user's first start: no PARLEY_ADMIN_API_KEY, so served mode prints a sign-in link.
const suite = e2eSuite(() => ({ adminApiKey: null }));

describe('the first visit, through the printed sign-in link', () => {
  it('lands signed in as the owner on the home page, the code gone from the address; the link works once', async () => {
    const link = suite.served.signInLink;
    expect(link).toMatch(/\/#\/sign-in\/[A-Za-z0-9_-]+$/);
    const context = await suite.newContext();
    const page = await context.newPage();
    await page.goto(link ?? '');
    await visible(page.getByRole('navigation', { name: 'Main' }));
    await eventually(() => mainNavLink(page, 'Chat').getAttribute('aria-current')).toBe('page');
    // The owner, a super admin: Admin is offered.
    await eventually(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toContain('Admin');
    expect(page.url()).not.toContain('sign-in');
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toMatch(/^pk_/);
    const key = await page.evaluate(() => localStorage.getItem('parley.apiKey')); // settled: matched just above
    const me = (await (await suite.served.api('/me', { token: key })).json()) as { user: { role: string } };
    expect(me.user.role).toBe('super_admin');

    // Still signed in after a reload: the browser holds a key, not the code.
    await page.reload();
    await visible(page.getByRole('navigation', { name: 'Main' }));
    // The home screen itself, not its loading skeleton, is what the screenshots are for.
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    expect(await inspectAtWidths(page, 'first-run-home')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);

    // The same link in another browser profile: refused, and the sign-in page says why.
    const other = await suite.open((link ?? '').split('/').slice(3).join('/'));
    await visible(other.getByRole('heading', { name: 'Sign in to Parley' }));
    await eventually(() => other.getByText(/already used/).count()).toBe(1);
    expect(other.url()).not.toContain('sign-in/');
    await eventually(() => other.evaluate(() => localStorage.getItem('parley.apiKey'))).toBeNull();
    expect(await inspectAtWidths(other, 'first-run-link-used')).toEqual([]);
    expect(pageProblems(other)).toEqual([]);
  });
});

describe('a later start', () => {
  it("prints a new link; opening it where an earlier link signed in replaces and revokes the earlier link's key", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-e2e-restart-'));
    // Stopped in `finally`, so a failed assertion leaves no server running after the suite.
    const servers: { stop(): Promise<unknown> }[] = [];
    try {
      const context = await suite.newContext();
      const page = await context.newPage();
      const first = await startServed({ dataDir, adminApiKey: null });
      servers.push(first);
      await page.goto(first.signInLink ?? '');
      await visible(page.getByRole('navigation', { name: 'Main' }));
      await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toMatch(/^pk_/);
      const firstKey = await page.evaluate(() => localStorage.getItem('parley.apiKey')); // settled: matched just above
      await first.stop();

      // Restarted on the same port (the browser's origin, and so its storage, stays the same).
      const port = new URL(first.url).port;
      const second = await startServed({ dataDir, adminApiKey: null, args: ['--port', port] });
      servers.push(second);
      expect(second.url).toBe(first.url);
      await page.goto(second.signInLink ?? '');
      await visible(page.getByRole('navigation', { name: 'Main' }));
      await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).not.toBe(firstKey);
      const secondKey = (await page.evaluate(() => localStorage.getItem('parley.apiKey'))) ?? '';
      await eventually(async () => (await second.api('/me', { token: firstKey })).status).toBe(401);
      expect((await second.api('/me', { token: secondKey })).status).toBe(200);
      const keys = (await (await second.api('/api-keys', { token: secondKey })).json()) as { data: { name: string }[] };
      expect(keys.data.map((k) => k.name)).toEqual(['Browser sign-in']);
      // The server was down between the two starts: the page's calls got 503 while it stopped, a call
      // in flight when it closed its sockets was reset (or got no response, or its socket was gone before
      // it was used: Chromium's ERR_SOCKET_NOT_CONNECTED), then no connection, and a
      // page whose code was being fetched then could not load it (the page area says so, with Reload —
      // before the error boundaries, this blanked the whole window). Nothing else may have gone wrong.
      const restartNoise =
        /Failed to load resource: (net::ERR_CONNECTION_REFUSED|net::ERR_CONNECTION_RESET|net::ERR_EMPTY_RESPONSE|net::ERR_SOCKET_NOT_CONNECTED|the server responded with a status of 503)|Failed to fetch dynamically imported module/;
      expect(pageProblems(page).filter((p) => !restartNoise.test(p))).toEqual([]);
      await second.stop();
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
