/**
 * The one table of Settings and Admin (ui/DataTable.tsx): named by a caption, a row header per row,
 * the same empty state everywhere, and in a 420 px window no sideways scrolling: a row's name,
 * status and actions stay in view, the columns that matter least give way, and what a row needs
 * said moves under its name.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, seriousA11yViolations, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;

beforeAll(async () => {
  await suite.served.api('/workflows', { method: 'POST', body: { name: 'Onboarding for new members of the field team', system_prompt: 'Welcome new staff.' } });
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
}, 60_000);

/** The table fits its box: nothing to scroll sideways to. */
const fits = (table: Locator) => table.evaluate((t) => (t.parentElement ? t.parentElement.scrollWidth <= t.parentElement.clientWidth : false));

/** Whether the element lies wholly inside the window's width. */
const inView = (locator: Locator) => locator.evaluate((el) => {
  const box = el.getBoundingClientRect();
  return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
});

describe('the tables of Settings and Admin', () => {
  it('at 1440 px show every column, under a caption and column headers', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${suite.served.url}/#/admin/workflows`);
    const table = await visible(page.getByRole('table', { name: 'Workflows' }));
    await eventually(() => table.getByRole('columnheader').allTextContents()).toEqual(['Name', 'Answered by', 'Status', 'Actions']);
    await visible(table.getByRole('rowheader', { name: /Onboarding for new members/ }));
  });

  it('at 420 px keep the name, the status and the actions in view, without scrolling sideways', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    const table = page.getByRole('table', { name: 'Workflows' });
    await eventually(() => fits(table)).toBe(true);
    const row = table.getByRole('row', { name: /Onboarding for new members/ });
    for (const name of ['Edit Onboarding for new members of the field team', 'Deactivate Onboarding for new members of the field team', 'Delete Onboarding for new members of the field team']) {
      await eventually(() => inView(row.getByRole('button', { name }))).toBe(true);
    }
    // The model column gives way; what it says moves under the name.
    expect(await table.getByRole('columnheader', { name: 'Answered by' }).isVisible()).toBe(false);
    await visible(row.getByRole('rowheader').getByText('Dynamic routing'));
    await visible(row.getByText('Active'));

    await page.goto(`${suite.served.url}/#/admin`);
    const users = await visible(page.getByRole('table', { name: /^Users of / }));
    await eventually(() => fits(users)).toBe(true);
    const me = users.getByRole('row', { name: /owner@localhost/ });
    await eventually(() => inView(me.getByRole('button', { name: /^Manage/ }))).toBe(true);
    expect(await users.getByRole('columnheader', { name: 'Added' }).isVisible()).toBe(false);
    await visible(me.getByRole('rowheader').getByText('Super admin'));

    await page.goto(`${suite.served.url}/#/settings/api`);
    const keys = await visible(page.getByRole('table', { name: 'Your API keys' }));
    await eventually(() => fits(keys)).toBe(true);
    const key = keys.getByRole('row', { name: /Admin key/ });
    await eventually(() => inView(key.getByRole('button', { name: /^Revoke/ }))).toBe(true);
    // The key's prefix goes under its name.
    await visible(key.getByRole('rowheader').locator('code'));
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it('say the same way that there is nothing to list', async () => {
    await page.goto(`${suite.served.url}/#/admin/trial`);
    const section = await visible(page.getByRole('region', { name: 'Trial users' }));
    await visible(section.locator('.table-empty').getByText('No trial users yet.'));
    expect(await section.getByRole('table').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });

  it('leave the chat composer the only thing labelled Model', async () => {
    for (const hash of ['#/settings/models', '#/settings/api', '#/admin/workflows']) {
      await page.goto(`${suite.served.url}/${hash}`);
      await visible(page.getByRole('heading', { level: 1 }));
      await eventually(() => page.getByRole('table').count()).toBeGreaterThan(0);
      // The tables, their captions, headers and row actions name no "Model".
      expect(await page.getByRole('table').getByLabel('Model').count()).toBe(0);
    }
    // Nor does anything on the workflows page: its form asks who answers.
    expect(await page.getByLabel('Model').count()).toBe(0);
    await visible(page.getByLabel('Answered by'));
  });
});
