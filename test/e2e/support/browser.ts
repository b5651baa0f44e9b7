import type { AxeResults, Result } from 'axe-core';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject, type TestContext } from 'vitest';
import { startServed, type Served, type ServedOptions } from '../../support/served.js';

const require = createRequire(import.meta.url);
/**
 * axe's source, evaluated through the DevTools protocol: the served page's CSP refuses injected
 * script tags, and it should stay on, so that the tests also prove the app runs under it.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));
export const SCHEMES = ['light', 'dark'] as const;
/** Where a failed e2e test leaves each of its open pages: a screenshot and what the page said. */
export const FAILURE_DIR = fileURLToPath(new URL('../../../test-results/failures/', import.meta.url));

/**
 * The Chromium that the e2e global setup found (test/e2e/support/global-setup.ts); without one,
 * this throws its one-line reason, so that the file fails saying why.
 */
export function chromiumPath(): string {
  const found = inject('chromium');
  if ('problem' in found) throw new Error(found.problem);
  return found.path;
}

/** Chromium, headless, with everything that would phone home turned off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

let workerBrowser: Promise<Browser> | undefined;

/**
 * The one Chromium of this worker, launched by the first e2e file that asks and shared by the
 * files after it (the e2e project does not isolate its files: vitest.config.ts). What a file sees
 * of the browser is its own: every page is in a fresh context (profile) that the file closes when
 * it ends. Launching and closing a Chromium per file cost ~1 s of each file on the loaded 2-core
 * CI machine (docs/testing.md, "Suite time"). A browser that died (crashed, or was closed) is
 * launched again; Playwright closes the last one when the worker exits.
 */
function sharedBrowser(): Promise<Browser> {
  const current = workerBrowser;
  if (current) {
    return current.then(
      (browser) => (browser.isConnected() ? browser : relaunch()),
      () => relaunch(),
    );
  }
  return relaunch();
}

function relaunch(): Promise<Browser> {
  const launched = launchBrowser();
  workerBrowser = launched;
  return launched;
}

/** Reduced motion, so that nothing is caught mid-transition by a screenshot or a contrast check. */
const CONTEXT_OPTIONS: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' };

export interface E2eSuite {
  /** The served-mode server of this file (its owner's key is `served.apiKey`). */
  readonly served: Served;
  /** A fresh profile (empty localStorage), closed when the file's tests are done; `options` add to the usual ones (a `locale`, say). */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  /**
   * A page at `hash` of the served app, in a fresh profile unless `context` is given, its errors
   * recorded for `pageProblems`; `prepare` runs before the app loads (init scripts, bindings).
   */
  open(hash?: string, options?: { context?: BrowserContext; prepare?: (page: Page) => Promise<void> }): Promise<Page>;
}

/**
 * One served-mode server for a test file, started before its tests and stopped after, and the
 * worker's shared Chromium (`sharedBrowser`), in which the file's contexts are closed after it.
 * Call at the top level of the file; `served` are the server's options (a prepared data dir, say),
 * read when it starts.
 */
export function e2eSuite(servedOptions: () => ServedOptions = () => ({})): E2eSuite {
  let served: Served | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    // Asked first: without a browser the file fails with the reason before a server starts.
    chromiumPath();
    [served, browser] = await Promise.all([startServed(servedOptions()), sharedBrowser()]);
  });
  // A test that failed leaves what its pages showed, so that a failure seen once (under load, in the
  // soak) can be understood without reproducing it.
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const kept = await keepFailedPages(context, contexts);
    if (kept) process.stderr.write(`e2e: ${context.task.name} failed; what its pages showed is in ${kept}-*.png/.txt\n`);
  });
  afterAll(async () => {
    // The browser stays open for the worker's next file; nothing of this file is left in it.
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    await served?.stop();
  });

  const started = () => {
    if (!served || !browser) throw new Error('the e2e suite is used before its beforeAll ran');
    return { served, browser };
  };

  return {
    get served() {
      return started().served;
    },
    async newContext(options = {}) {
      const context = await started().browser.newContext({ ...CONTEXT_OPTIONS, ...options });
      contexts.push(context);
      // Every page's problems, pages a test opens itself too: for pageProblems and for what a failed test leaves.
      context.on('page', recordProblems);
      return context;
    },
    async open(hash = '', options = {}) {
      const page = await (options.context ?? (await this.newContext())).newPage();
      // A context that newContext did not make records nothing by itself.
      if (!pageProblemLog.has(page)) recordProblems(page);
      await options.prepare?.(page);
      await page.goto(`${started().served.url}/${hash}`);
      return page;
    },
  };
}

/**
 * Saves a full-page screenshot and the URL, recorded problems and visible text of every page open
 * in `contexts`, named after the test, in FAILURE_DIR; answers their common path (null: no page was
 * open). Never fails or hangs the run: each step has its own short limit, and what cannot be saved
 * is skipped.
 */
export async function keepFailedPages({ task }: TestContext, contexts: BrowserContext[]): Promise<string | null> {
  const file = basename(task.file.name).replace(/\.test\.ts$/, '');
  const name = `${file}--${task.name}`.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 120);
  mkdirSync(FAILURE_DIR, { recursive: true });
  const pages = contexts.flatMap((c) => c.pages());
  for (const [i, page] of pages.entries()) {
    const base = join(FAILURE_DIR, `${name}-${i + 1}`);
    await page.screenshot({ path: `${base}.png`, fullPage: true, timeout: 10_000 }).catch(() => undefined);
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((error: unknown) => `(no text: ${String(error)})`);
    writeFileSync(`${base}.txt`, [`url: ${page.url()}`, ...pageProblems(page), '', text].join('\n'));
  }
  return pages.length > 0 ? join(FAILURE_DIR, name) : null;
}

function recordProblems(page: Page): void {
  const problems: string[] = [];
  pageProblemLog.set(page, problems);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every 4xx answer; the app shows those itself, and tests provoke them.
    if (message.type() === 'error' && !/status of 4\d\d/.test(message.text())) problems.push(`console error: ${message.text()}`);
  });
}

const pageProblemLog = new WeakMap<Page, string[]>();

/** What went wrong in the page unseen: uncaught exceptions and console errors (4xx answers aside). */
export function pageProblems(page: Page): string[] {
  return pageProblemLog.get(page) ?? [];
}

export async function visible(locator: Locator, timeout = 30_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** A link of the app's main navigation, by its exact name: pages hold other links whose names contain "Settings" or "Chat". */
export function mainNavLink(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
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

/**
 * The axe rules (of those it runs by default) whose outcome depends on the colours painted: all
 * that can differ between the light and the dark scheme of one page. A scheme changes colours only:
 * app/theme.ts sets `data-theme` on the root, and the rules on it (styles/tokens.css, chat-sources.css)
 * set colour tokens and shadows, so the DOM, the ARIA and the layout axe's other rules read are the same.
 * (`color-contrast-enhanced`, AAA, is off by default.)
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'] as const;

/**
 * Runs axe-core on the page as it is (only the rules `only` names, if given); answers the serious
 * and critical violations, described.
 */
export async function seriousA11yViolations(page: Page, only?: readonly string[]): Promise<string[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((rules) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    return axe.run(document, { resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) });
  }, only);
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describeViolation);
}

/**
 * Waits one frame: media-query change listeners (the app's theme follows the system) have run by
 * the time the next frame's callbacks do.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

/**
 * The page in each colour scheme: checked with axe and saved as
 * `test-results/screenshots/<name>-<scheme>.png`. Answers the violations found,
 * per scheme. The first scheme gets every rule; the second only the rules a scheme can change
 * (`COLOUR_RULES`): the others read the same DOM and layout in both, so running them again found
 * nothing new and cost 30–100 ms an inspection on a quiet machine (measured 2026-11-27), twice
 * that under load.
 */
export async function inspectPage(page: Page, name: string): Promise<string[]> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const found: string[] = [];
  for (const [i, colorScheme] of SCHEMES.entries()) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await settled(page);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${colorScheme}.png`), fullPage: true });
    for (const violation of await seriousA11yViolations(page, i === 0 ? undefined : COLOUR_RULES)) found.push(`${name} (${colorScheme}):\n${violation}`);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  return found;
}
