import { describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();

// A tab that outlives its server (Parley restarted or updated while it was open) cannot fetch the
// code of a page it has not opened yet. That must be a sentence and Reload, not a blank window.
describe('a page whose code cannot be loaded', () => {
  it('says so with Reload in the page area; the navigation still works and another page opens', async () => {
    const page = await suite.open();
    await signIn(page, suite.served.apiKey);
    await page.route(/\/assets\/SettingsPage-[^/]+\.js$/, (route) => route.abort('connectionrefused'));

    await mainNavLink(page, 'Settings').click();
    const alert = await visible(page.getByRole('alert').filter({ hasText: 'Parley could not load this page' }));
    await eventually(() => alert.textContent()).toContain('restarted or updated');
    await visible(alert.getByRole('button', { name: 'Reload' }));
    expect(await inspectPage(page, 'page-load-failure')).toEqual([]);

    // The rest of the app is still there: another page replaces the message.
    await mainNavLink(page, 'Chat').click();
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    await eventually(() => page.getByRole('alert').filter({ hasText: 'could not load' }).count()).toBe(0);

    // Reload fetches the page's code again, and it opens.
    await page.unroute(/\/assets\/SettingsPage-[^/]+\.js$/);
    await mainNavLink(page, 'Settings').click();
    await visible(page.getByRole('alert').filter({ hasText: 'could not load' }).getByRole('button', { name: 'Reload' }));
    await page.getByRole('button', { name: 'Reload' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    // The refused fetch and the boundary's report are the only problems, and they were expected.
    expect(pageProblems(page).every((p) => /SettingsPage|could not show this page|Failed to fetch dynamically imported module|ERR_CONNECTION_REFUSED|ERR_FAILED/.test(p))).toBe(true);
  });
});
