import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
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
});
