import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { openSettingsSection } from './support/settings.js';

const suite = e2eSuite();

async function settingsAs(key: string): Promise<Page> {
  const context = await suite.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.served.url });
  const page = await suite.open('', { context });
  await signIn(page, key);
  await mainNavLink(page, 'Settings').click();
  await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
  await openSettingsSection(page, 'Server and API keys');
  return page;
}

describe('Settings → API keys', () => {
  it('creates a key shown once, lists it, and revokes it after confirmation', async () => {
    const page = await settingsAs(suite.served.apiKey);

    await page.getByLabel('New key name').fill('CI runner');
    await page.getByRole('button', { name: 'Create key' }).click();
    const reveal = await visible(page.getByRole('region', { name: 'New key “CI runner”' }));
    await eventually(() => reveal.getByRole('textbox').inputValue()).toMatch(/^pk_[A-Za-z0-9]{32}$/);
    const key = await reveal.getByRole('textbox').inputValue(); // settled: matched just above
    await eventually(() => reveal.textContent()).toMatch(/only time the full key is shown/);

    await reveal.getByRole('button', { name: 'Copy key' }).click();
    await visible(reveal.getByRole('button', { name: 'Copied' }));
    await eventually(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await inspectPage(page, 'settings-new-key')).toEqual([]);

    // The new key works, as its owner.
    const me = await suite.served.api('/me', { token: key });
    expect(me.status).toBe(200);

    const row = await visible(page.getByRole('row', { name: /CI runner/ }));
    await eventually(() => row.textContent()).toContain(`${key.slice(0, 7)}…`);
    // One read, not retried: a retry could pass after a leaked key had been on screen.
    expect(await row.textContent()).not.toContain(key.slice(0, 8));

    // Dismissed, the key is never shown again, not even after a reload.
    await reveal.getByRole('button', { name: 'I have saved the key' }).click();
    await eventually(() => page.getByRole('region', { name: 'New key “CI runner”' }).count()).toBe(0);
    await page.reload();
    await visible(page.getByRole('row', { name: /CI runner/ }));
    // One read, not retried: a retry could pass after a leaked key had been on screen.
    expect(await page.content()).not.toContain(key);
    // Used once by the /me call above.
    await eventually(() => page.getByRole('row', { name: /CI runner/ }).textContent()).not.toContain('Never');

    await page.getByRole('button', { name: 'Revoke CI runner' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Revoke “CI runner”?' }));
    expect(await inspectPage(page, 'settings-revoke-dialog')).toEqual([]);
    // Cancel first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await suite.served.api('/me', { token: key })).status).toBe(200);

    await page.getByRole('button', { name: 'Revoke CI runner' }).click();
    await visible(page.getByRole('dialog')).then((d) => d.getByRole('button', { name: 'Revoke key' }).click());
    await visible(page.getByRole('status').filter({ hasText: 'was revoked' }));
    // The list is fetched again after the announcement: the row goes once it answers.
    await eventually(() => page.getByRole('row', { name: /CI runner/ }).count()).toBe(0);
    expect(await inspectPage(page, 'settings-revoked')).toEqual([]);

    const refused = await suite.served.api('/me', { token: key });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthenticated');
    expect(pageProblems(page)).toEqual([]);
  });

  it('asks for a name before creating a key', async () => {
    const page = await settingsAs(suite.served.apiKey);
    const count = async () => ((await (await suite.served.api('/api-keys')).json()) as { data: unknown[] }).data.length;
    const before = await count();
    await page.getByRole('button', { name: 'Create key' }).click();
    const error = await visible(page.getByRole('alert'));
    await eventually(() => error.textContent()).toMatch(/Give the key a name/);
    await eventually(() => page.getByLabel('New key name').getAttribute('aria-invalid')).toBe('true');
    await eventually(() => count()).toBe(before);
  });

  it("marks this browser's key, and revoking it signs this browser out", async () => {
    const created = (await (await suite.served.api('/api-keys', { body: { name: 'Browser session' } })).json()) as { key: string };
    const page = await settingsAs(created.key);
    const row = await visible(page.getByRole('row', { name: /Browser session/ }));
    await eventually(() => row.textContent()).toContain('This browser');

    await page.getByRole('button', { name: 'Revoke Browser session' }).click();
    const dialog = await visible(page.getByRole('dialog'));
    await eventually(() => dialog.textContent()).toMatch(/signs you out here/);
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await visible(page.getByRole('heading', { name: 'Sign in to Parley' }));
    await eventually(() => page.getByRole('status').filter({ hasText: 'You revoked the key' }).count()).toBe(1);
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.apiKey'))).toBeNull();
    expect((await suite.served.api('/me', { token: created.key })).status).toBe(401);
  });
});
