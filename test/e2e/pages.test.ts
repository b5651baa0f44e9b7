import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidthsThenResize } from './support/widths.js';

const suite = e2eSuite();
let page: Page;

beforeAll(async () => {
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

async function go(hash: string, heading: string) {
  await page.goto(`${suite.served.url}/${hash}`);
  await visible(page.getByRole('heading', { level: 1, name: heading }));
}

describe('every page of the shell, as the owner', () => {
  it('#/compare with only the built-in model says to add models in Settings', async () => {
    await go('#/compare', 'Compare');
    await visible(page.getByRole('heading', { level: 2, name: 'Add at least two models in Settings' }));
    const main = (await page.getByRole('main').textContent()) ?? '';
    expect(main).not.toMatch(/TODO|lorem/i);
    await visible(page.getByRole('main').getByRole('link', { name: 'Open Settings' }));
    await eventually(() => mainNavLink(page, 'Compare').getAttribute('aria-current')).toBe('page');
    await eventually(() => page.title()).toBe('Compare · Parley');
    expect(await inspectAtWidthsThenResize(page, 'compare', { width: 1280, height: 800 })).toEqual([]);
  });

  it('#/settings/<section> shows that section alone; its sub-navigation switches sections, and Back returns', async () => {
    await go('#/settings/api', 'Settings');
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    const link = (name: string) => sections.getByRole('link', { name, exact: true });
    await eventually(() => link('Server and API keys').getAttribute('aria-current')).toBe('page');
    await visible(page.getByRole('region', { name: 'API keys' }));
    await visible(page.getByRole('row', { name: /Admin key \(PARLEY_ADMIN_API_KEY\)/ }));
    // Settled: the section's own table is in, and the others are never rendered beside it.
    expect(await page.getByRole('region', { name: 'Profile' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Models and providers' }).count()).toBe(0);
    expect(await inspectAtWidthsThenResize(page, 'settings', { width: 1280, height: 800 })).toEqual([]);

    await link('General').click();
    await visible(page.getByRole('region', { name: 'Profile' }));
    await eventually(() => page.getByRole('region', { name: 'API keys' }).count()).toBe(0);
    await eventually(() => link('General').getAttribute('aria-current')).toBe('page');
    expect(await link('Server and API keys').getAttribute('aria-current')).toBe(null);
    expect(new URL(page.url()).hash).toBe('#/settings');

    await page.goBack();
    await visible(page.getByRole('region', { name: 'API keys' }));
    await eventually(() => page.getByRole('region', { name: 'Profile' }).count()).toBe(0);
    await eventually(() => link('Server and API keys').getAttribute('aria-current')).toBe('page');
    expect(new URL(page.url()).hash).toBe('#/settings/api');
    expect(pageProblems(page)).toEqual([]);
  });

  it('#/admin lists the users', async () => {
    await go('#/admin', 'Admin');
    await visible(page.getByRole('region', { name: 'Users' }));
    await visible(page.getByRole('row', { name: /owner@localhost/ }));
    expect(await inspectAtWidthsThenResize(page, 'admin', { width: 1280, height: 800 })).toEqual([]);
  });

  it('an unknown address says so', async () => {
    await go('#/nowhere', 'Page not found');
    expect(await inspectPage(page, 'not-found')).toEqual([]);
  });

  it('the navigation links lead to their pages', async () => {
    await go('#/chat', 'Chat');
    for (const name of ['Datasets', 'Compare', 'Settings', 'Admin', 'Chat']) {
      await mainNavLink(page, name).click();
      await visible(page.getByRole('heading', { level: 1, name }));
      expect(new URL(page.url()).hash).toBe(`#/${name.toLowerCase()}`);
      // Focus moves to the new page's heading, so screen readers announce it.
      await eventually(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    }
  });

  it('a narrow window stacks the navigation above the page', async () => {
    await page.setViewportSize({ width: 420, height: 800 });
    await go('#/settings', 'Settings');
    expect(await inspectPage(page, 'settings-narrow')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });
});
