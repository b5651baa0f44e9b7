import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { e2eSuite, FAILURE_DIR, keepFailedPages, visible } from './support/browser.js';

const suite = e2eSuite();

// What a failed e2e test leaves behind (the suite's afterEach calls this when a test fails): a
// failure seen once under load must be readable afterwards, not only reproducible.
describe('a failed e2e test', () => {
  it('leaves a screenshot and the text of each page it had open', async (context) => {
    // A page the test opened itself, not through suite.open: its uncaught errors are kept too.
    const page = await (await suite.newContext()).newPage();
    await page.goto(`${suite.served.url}/`);
    await visible(page.getByRole('heading', { name: 'Sign in to Parley' }));
    // Thrown in a timer of its own; the page answers after it (the next timer), so the error is reported first.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            throw new Error('thrown by the page');
          });
          setTimeout(resolve);
        }),
    );
    const base = join(FAILURE_DIR, 'failure-pages--leaves-a-screenshot-and-the-text-of-each-page-it-had-open-1');
    rmSync(`${base}.png`, { force: true });
    rmSync(`${base}.txt`, { force: true });

    await keepFailedPages(context, [page.context()]);

    expect(existsSync(`${base}.png`)).toBe(true);
    const text = readFileSync(`${base}.txt`, 'utf8');
    expect(text).toContain(`url: ${suite.served.url}/`);
    expect(text).toContain('Sign in to Parley');
    expect(text).toContain('page error: thrown by the page');
    // Not a failure of this run: nothing is left for a reader of test-results/failures/ to puzzle over.
    rmSync(`${base}.png`);
    rmSync(`${base}.txt`);
  });
});
