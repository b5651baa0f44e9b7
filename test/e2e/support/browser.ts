import type { AxeResults, Result } from 'axe-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { Served } from '../../support/served.js';

const require = createRequire(import.meta.url);
/**
 * axe's source, evaluated through the DevTools protocol: the served page's CSP refuses injected
 * script tags, and it should stay on, so that the tests also prove the app runs under it.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));
export const CHROMIUM = process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium';
export const SCHEMES = ['light', 'dark'] as const;

/** Debian's Chromium, headless, with everything that would phone home turned off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A fresh profile (empty localStorage) on the served app, reduced motion so that nothing is caught mid-transition. */
export async function openApp(browser: Browser, served: Served, hash = ''): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems: string[] = [];
  pageProblemLog.set(page, problems);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every 4xx answer; the app shows those itself, and tests provoke them.
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${served.url}/${hash}`);
  return { context, page };
}

const pageProblemLog = new WeakMap<Page, string[]>();

/** What went wrong in the page unseen: uncaught exceptions and console errors (4xx answers aside). */
export function pageProblems(page: Page): string[] {
  return pageProblemLog.get(page) ?? [];
}

export async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await visible(page.getByRole('navigation', { name: 'Main' }));
}

function describeViolation(v: Result): string {
  const nodes = v.nodes.slice(0, 3).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`);
  return `  [${v.impact}] ${v.id}: ${v.help}\n${nodes.join('\n')}`;
}

/** Runs axe-core on the page as it is; answers the serious and critical violations, described. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describeViolation);
}

/**
 * The page in each colour scheme: checked with axe (contrast differs per theme) and saved as
 * `test-results/screenshots/<name>-<scheme>.png`. Answers the violations found, per scheme.
 */
export async function inspectPage(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const found: string[] = [];
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`), fullPage: true });
    for (const violation of await seriousA11yViolations(page)) found.push(`${name} (${colorScheme}):\n${violation}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  return found;
}
