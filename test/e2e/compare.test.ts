import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { addModel } from './support/served-data.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;

/** The ten words `slow:<ms>` streams, one per chunk. */
const ALL_WORDS = 'one two three four five six seven eight nine ten';

const prompt = () => page.getByLabel('Prompt');
const column = (label: string) => page.getByRole('article', { name: new RegExp(`^Answer ${label}:`) });
const columnText = async (label: string) => ((await column(label).locator('.markdown').textContent().catch(() => '')) ?? '').trim();

async function choose(names: string[]): Promise<void> {
  const group = page.getByRole('group', { name: /Models/ });
  for (const box of await group.getByRole('checkbox').all()) if (await box.isChecked()) await box.uncheck();
  for (const name of names) await group.getByRole('checkbox', { name }).check();
}

beforeAll(async () => {
  upstream = await startUpstream();
  page = await suite.open('#/compare');
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  await upstream.close();
});

describe('compare in the browser', () => {
  it('with only the built-in model, says to add models in Settings', async () => {
    await page.goto(`${suite.served.url}/#/compare`);
    await visible(page.getByRole('heading', { level: 2, name: 'Add at least two models in Settings' }));
  });

  it('two models stream side by side, the form locked meanwhile; a vote; the leaderboard', async () => {
    await addModel(suite.served, upstream.openaiBaseUrl, 'Steady', 'slow:150');
    await addModel(suite.served, upstream.openaiBaseUrl, 'Quick', 'fixed:A **quick** answer.');
    await addModel(suite.served, upstream.openaiBaseUrl, 'Breaks', 'fail-mid:3');
    await page.reload();
    await visible(prompt());
    await choose(['Steady', 'Quick']);
    await prompt().fill('Count to ten');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();

    await visible(column('A'));
    await visible(column('B'));
    await eventually(() => prompt().isDisabled()).toBe(true);
    await visible(page.getByRole('button', { name: 'Stop' }));
    // Part of the slow answer shows before the whole of it exists, while the quick one is done.
    await eventually(() => columnText('A'), { timeout: 10_000 }).toMatch(/^one two/);
    // One read, on purpose: the state at the moment the part-way text showed (a retried negative check proves no more).
    expect(await columnText('A')).not.toContain('ten');
    await eventually(() => columnText('B')).toBe('A quick answer.');
    await eventually(() => column('B').locator('strong').textContent()).toBe('quick');
    expect(await inspectPage(page, 'compare-streaming')).toEqual([]);

    await eventually(() => columnText('A'), { timeout: 10_000 }).toBe(ALL_WORDS);
    await eventually(() => prompt().isDisabled()).toBe(false);
    expect(new URL(page.url()).hash).toMatch(/^#\/compare\/cmp_/);
    await eventually(() => column('A').textContent()).toMatch(/Done/);
    await eventually(() => column('A').textContent()).toMatch(/\d+ in · \d+ out/);

    await page.getByRole('button', { name: 'B is better' }).click();
    await visible(page.getByText(/You voted: B is better \(Quick\)/));
    expect(await inspectPage(page, 'compare-voted')).toEqual([]);
    // A narrow window: the columns scroll sideways instead of squeezing.
    await page.setViewportSize({ width: 700, height: 900 });
    expect(await inspectPage(page, 'compare-narrow')).toEqual([]);
    await eventually(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('navigation', { name: 'Compare views' }).getByRole('link', { name: 'Leaderboard' }).click();
    const table = await visible(page.getByRole('table'));
    const rows = table.getByRole('row');
    await eventually(() => rows.count()).toBe(3);
    await eventually(() => rows.nth(1).textContent()).toMatch(/^1Quick/);
    await eventually(() => rows.nth(2).textContent()).toMatch(/^2Steady/);
    expect(await inspectPage(page, 'compare-leaderboard')).toEqual([]);
  });

  it('blind: names hidden until the vote reveals them; a failing model fails alone', async () => {
    await page.getByRole('navigation', { name: 'Compare views' }).getByRole('link', { name: 'Side by side' }).click();
    await visible(prompt());
    await choose(['Quick', 'Breaks']);
    await page.getByLabel(/Blind/).check();
    await prompt().fill('Who are you?');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await visible(page.getByRole('button', { name: 'Tie' }));
    await eventually(() => page.getByRole('article', { name: /^Answer A: Model A$/ }).count()).toBe(1);
    await eventually(() => page.getByRole('article', { name: /^Answer B: Model B$/ }).count()).toBe(1);
    const answers = page.getByRole('region', { name: 'Answers' });
    await eventually(() => answers.textContent()).not.toMatch(/Quick|Breaks/);
    await eventually(() => answers.textContent()).toMatch(/This model stopped with an error\./);
    await eventually(() => answers.textContent()).toContain('A quick answer.');
    await eventually(() => answers.textContent()).toContain('w1 w2 w3');
    expect(await inspectPage(page, 'compare-blind')).toEqual([]);

    await page.getByRole('button', { name: 'Tie' }).click();
    await visible(page.getByText(/You voted: a tie/));
    await eventually(() => answers.textContent()).toMatch(/Quick/);
    await eventually(() => answers.textContent()).toMatch(/Breaks/);
  });

  it('Stop ends the answers still streaming and keeps their text', async () => {
    await page.getByRole('navigation', { name: 'Compare views' }).getByRole('link', { name: 'Side by side' }).click();
    await visible(prompt());
    await page.getByLabel(/Blind/).uncheck();
    await choose(['Steady', 'Quick']);
    await prompt().fill('Count, then stop');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await eventually(() => columnText('A'), { timeout: 10_000 }).toMatch(/^one two/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(column('A').getByText('Stopped'));
    const partial = await columnText('A');
    expect(partial).not.toContain('ten');
    await eventually(() => prompt().isDisabled()).toBe(false);
    // Nothing more comes: the upstream answer is stopped too (no request of it is left open), and
    // the text shown is still the part-way text.
    await eventually(() => upstream.active()).toBe(0);
    expect(await columnText('A')).toBe(partial);
  });

  it('a reload mid-way re-attaches to the answers, and Esc stops them', async () => {
    await addModel(suite.served, upstream.openaiBaseUrl, 'Patient', 'slow:400');
    await page.goto(`${suite.served.url}/#/compare`);
    await page.reload();
    await visible(prompt());
    await choose(['Patient', 'Quick']);
    await prompt().fill('Count across a reload');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await eventually(() => columnText('A'), { timeout: 10_000 }).toMatch(/^one/);
    expect(new URL(page.url()).hash).toMatch(/^#\/compare\/cmp_/);
    await page.reload();
    await eventually(() => columnText('A'), { timeout: 10_000 }).toMatch(/^one two three/);
    await eventually(() => prompt().isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await visible(column('A').getByText('Stopped'));
    // One read, on purpose: the state at the moment the part-way text showed (a retried negative check proves no more).
    expect(await columnText('A')).not.toContain('ten');
    // The Markdown renderer may still be loading after the reload: the text settles once it is there.
    await eventually(() => columnText('B')).toBe('A quick answer.');
    await eventually(() => prompt().isDisabled()).toBe(false);
  });

  it('past comparisons are listed and reopen', async () => {
    await page.getByRole('navigation', { name: 'Compare views' }).getByRole('link', { name: 'History' }).click();
    const first = await visible(page.getByRole('link', { name: /Who are you\?/ }));
    await eventually(() => first.textContent()).toMatch(/Tie/);
    await visible(page.getByRole('link', { name: /Count to ten/ }));
    expect(await inspectPage(page, 'compare-history')).toEqual([]);
    await page.getByRole('link', { name: /Count to ten/ }).click();
    await eventually(() => columnText('A')).toBe(ALL_WORDS);
    await visible(page.getByText(/You voted: B is better/));
    expect(pageProblems(page)).toEqual([]);
  });
});
