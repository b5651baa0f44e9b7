import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ggufBytes, sha256, startDownloadServer, type DownloadServer } from '../fixtures/download-server.js';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidthsThenResize } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let files: DownloadServer;

beforeAll(async () => {
  files = await startDownloadServer();
  page = await suite.open('#/chat');
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  await files.close();
});

const localModels = () => page.getByRole('region', { name: 'Download local models' });
const downloads = () => localModels().getByRole('list', { name: 'Downloads' });

async function downloadByUrl(url: string, sha?: string): Promise<void> {
  const details = localModels().locator('details.download-by-url');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await page.getByLabel('File URL').fill(url);
  await page.getByLabel('SHA-256').fill(sha ?? '');
  await details.getByRole('button', { name: 'Download', exact: true }).click();
}

describe('a fresh install leads to a model', () => {
  it('the home screen offers no prompts the built-in model must refuse, and leads to getting a model or a dataset', async () => {
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    await visible(page.getByRole('heading', { name: 'Get a model that can chat' }));
    const lead = page.locator('.getting-started');
    // The composer's model picker stays the one thing labelled "Model".
    await eventually(() => page.getByLabel('Model').count()).toBe(1);
    // An admin is offered models to download right here (this machine's 24 GB fit them all).
    await visible(lead.getByRole('list', { name: 'Recommended downloads' }).getByRole('button', { name: /^Download / }).first());
    await visible(lead.getByRole('link', { name: /More models and endpoints/ }));
    await visible(lead.getByRole('link', { name: /Create a dataset/ }));
    await eventually(() => page.getByRole('region', { name: 'Suggested prompts' }).count()).toBe(0);
    await eventually(() => page.getByText('Explain a concept').count()).toBe(0);
    expect(await inspectAtWidthsThenResize(page, 'home-fresh-install', { width: 1280, height: 800 })).toEqual([]);
  });

  it('"More models and endpoints" opens the whole catalogue, which says what each model needs and whether it fits', async () => {
    await page.getByRole('link', { name: /More models and endpoints/ }).click();
    await visible(localModels());
    const catalogue = localModels().getByRole('list', { name: 'Recommended models' });
    await visible(catalogue.locator('strong', { hasText: 'Qwen2.5 0.5B Instruct' }));
    await visible(catalogue.getByRole('button', { name: 'Download Qwen2.5 0.5B Instruct' }));
    await visible(catalogue.locator('strong', { hasText: 'nomic-embed-text v1.5' }));
    await visible(localModels().getByText(/This machine has .* of memory/));
    await visible(catalogue.getByText(/needs about .* of memory/).first());
    await eventually(() => catalogue.getByRole('link', { name: 'Apache-2.0' }).count()).toBeGreaterThan(0);
    // This machine has 24 GB: every recommended model fits, so none is marked.
    await eventually(() => catalogue.getByText('Too large for this machine’s memory').count()).toBe(0);
    await page.getByRole('heading', { name: 'Download local models' }).scrollIntoViewIfNeeded();
    expect(await inspectAtWidthsThenResize(page, 'settings-local-models', { width: 1280, height: 800 })).toEqual([]);
  });
});

describe('downloads in Settings → Download local models', () => {
  it('shows a running download with a progress bar, and cancels it', async () => {
    const url = files.add('/m/held.gguf', { bytes: ggufBytes(400_000), holdAt: 100_000 });
    await downloadByUrl(url);
    const item = downloads().getByRole('listitem').filter({ hasText: 'held.gguf' });
    await visible(item.getByText('Downloading'));
    await visible(item.getByText(/98 KB of 391 KB/));
    await eventually(() => item.getByRole('progressbar').getAttribute('value')).toBe(String(100_000 / 400_000));
    expect(await inspectAtWidthsThenResize(page, 'settings-download-progress', { width: 1280, height: 800 })).toEqual([]);
    await item.getByRole('button', { name: /Cancel/ }).click();
    await visible(item.getByText('Cancelled'));
    await eventually(() => item.getByRole('progressbar').count()).toBe(0);
    files.release();
  });

  it('shows why a download failed: a checksum mismatch', async () => {
    const url = files.add('/m/corrupt.gguf', { bytes: ggufBytes(50_000) });
    await downloadByUrl(url, 'c'.repeat(64));
    const item = downloads().getByRole('listitem').filter({ hasText: 'corrupt.gguf' });
    await visible(item.getByText('Failed'));
    await visible(item.getByText(/Checksum mismatch/));
  });

  it('completes a download, verified, and marks it downloaded', async () => {
    const bytes = ggufBytes(80_000);
    const url = files.add('/m/good.gguf', { bytes, dropAt: 30_000 });
    await downloadByUrl(url, sha256(bytes));
    const item = downloads().getByRole('listitem').filter({ hasText: 'good.gguf' });
    await visible(item.getByText('Downloaded'));
    await visible(item.getByText(new RegExp(`SHA-256 ${sha256(bytes).slice(0, 12)}… verified`)));
    expect(await inspectAtWidthsThenResize(page, 'settings-downloads-finished', { width: 1280, height: 800 })).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});
