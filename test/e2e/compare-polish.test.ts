import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidths } from './support/widths.js';
import { brokenWords, insideWindow } from './support/layout.js';
import { addModel } from './support/served-data.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
  for (const n of ['One', 'Two', 'Three', 'Four', 'Five']) await addModel(suite.served, upstream.openaiBaseUrl, n, `fixed:Answer from ${n}.`);
  const dead = await addModel(suite.served, upstream.openaiBaseUrl, 'Dead', 'status:503');
  // Its connection test fails: it is unavailable, so not chosen by default.
  await suite.served.api(`/models/${dead}/test`, { body: {} });
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  await upstream.close();
});

describe('compare polish', () => {
  it('an errored answer is left out of the vote; many columns show a scroll hint; reopening refills the form', async () => {
    await page.goto(`${suite.served.url}/#/compare`);
    const group = page.getByRole('group', { name: /Models/ });
    await visible(group.getByRole('checkbox', { name: /Dead/ }));
    await eventually(() => group.getByRole('checkbox', { name: /Dead/ }).isChecked()).toBe(false);
    for (const name of ['Three', 'Four', 'Five', 'Dead']) await group.getByRole('checkbox', { name: new RegExp(name) }).check();
    await page.getByLabel('Prompt').fill('Say hello');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const vote = await visible(page.getByRole('group', { name: 'Vote' }), 20_000);
    await eventually(() => vote.getByRole('button', { name: /is better/ }).count()).toBe(5);
    await visible(vote.getByText(/did not complete and is left out of the vote/));
    await page.setViewportSize({ width: 1440, height: 900 });
    await visible(page.getByText(/6 answers — scroll sideways/));
    expect(await inspectPage(page, 'compare-six-1440')).toEqual([]);
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await inspectPage(page, 'compare-six-420')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await vote.getByRole('button', { name: 'Tie' }).click();

    const { data } = (await (await suite.served.api('/comparisons/leaderboard')).json()) as { data: Array<{ model_name: string }> };
    expect(data.map((e) => e.model_name)).not.toContain('Dead');

    await page.getByLabel('Prompt').fill('');
    await page.goto(`${suite.served.url}/#/compare/history`);
    await page.getByRole('link', { name: /Say hello/ }).click();
    await eventually(() => page.getByLabel('Prompt').inputValue(), { timeout: 10_000 }).toBe('Say hello');
    await eventually(() => group.getByRole('checkbox', { name: /Dead/ }).isChecked()).toBe(true);
  });

  it('models the votes rate alike share their rank on the leaderboard', async () => {
    // The one vote above was a tie among five answers: the votes cannot order them.
    await page.getByRole('navigation', { name: 'Compare views' }).getByRole('link', { name: 'Leaderboard' }).click();
    const table = await visible(page.getByRole('table'));
    await eventually(() => table.getByRole('cell', { name: 'Tied for place 1', exact: true }).count()).toBe(5);
    await eventually(() => table.getByRole('row').nth(1).textContent()).toMatch(/^=1/);
    const { data } = (await (await suite.served.api('/comparisons/leaderboard')).json()) as { data: Array<{ rank: number }> };
    expect(data.map((e) => e.rank)).toEqual([1, 1, 1, 1, 1]);
  });

  it('four answers with tables fit a 1280 px window; a table cell never breaks a word', async () => {
    const table = '| Region | Quarterly revenue | Commentary |\n|---|---|---|\n| Northwest | 1,200 | Strongest performance across territories |\n| Southeast | 940 | Recovering after supplier difficulties |';
    for (const n of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await addModel(suite.served, upstream.openaiBaseUrl, n, `fixed:${table}`);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${suite.served.url}/#/compare`);
    const group = page.getByRole('group', { name: /Models/ });
    await visible(group.getByRole('checkbox', { name: /Delta/ }));
    for (const box of await group.getByRole('checkbox').all()) if (await box.isChecked()) await box.uncheck();
    for (const name of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await group.getByRole('checkbox', { name: new RegExp(name) }).check();
    await page.getByLabel('Prompt').fill('Revenue by region');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await visible(page.getByRole('group', { name: 'Vote' }), 20_000);
    const fourth = page.getByRole('article', { name: /^Answer D:/ });
    await visible(fourth.getByRole('table'));
    // The fourth answer is in view, with nothing to scroll sideways to.
    await eventually(() => insideWindow(fourth)).toBe(true);
    expect(await page.getByText(/scroll sideways/).count()).toBe(0);
    // Each cell is at least as wide as its longest word; the table scrolls in its own box instead.
    const cells = page.locator('.compare-column .markdown').getByRole('cell');
    expect(await cells.count()).toBe(4 * 6);
    expect(await brokenWords(cells)).toEqual([]);
    expect(await brokenWords(page.locator('.compare-column .markdown').getByRole('columnheader'))).toEqual([]);
    expect(await inspectAtWidths(page, 'compare-tables')).toEqual([]);
    expect(await brokenWords(page.locator('.compare-column .markdown').getByRole('cell'))).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
