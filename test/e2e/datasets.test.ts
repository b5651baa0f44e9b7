import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, mainNavLink, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
const dir = mkdtempSync(join(tmpdir(), 'parley-e2e-files-'));

/** A few small documents that index, and one that cannot be read: a PDF that is not one. */
const FILES: Record<string, string> = {
  'handbook.md': '# Handbook\n\nThe office opens at nine. Visitors sign in at the front desk.\n\n## Parking\n\nPark behind the building.',
  'notes.txt': 'Quarterly notes: revenue grew, the team shipped the new importer, and support tickets went down.',
  'glossary.md': '# Glossary\n\n- **Artifact**: a file in a dataset.\n- **Chunk**: a passage indexed for search.',
  'broken.pdf': '%PDF-1.7\nthis is not really a pdf at all\n%%EOF',
};

beforeAll(async () => {
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function go(hash: string, heading: string) {
  await page.goto(`${suite.served.url}/${hash}`);
  await visible(page.getByRole('heading', { level: 1, name: heading }));
}

function row(key: string) {
  return page.getByRole('row', { name: new RegExp(key.replace('.', '\\.')) });
}

describe('datasets', () => {
  it('with none yet, the page says what a dataset is and offers to create one', async () => {
    await go('#/datasets', 'Datasets');
    await visible(page.getByRole('heading', { level: 2, name: 'Create your first dataset' }));
    expect(await inspectPage(page, 'datasets-empty')).toEqual([]);
  });

  it('creates a dataset and opens it, its id in the address', async () => {
    await page.getByLabel('Name').fill('Company handbook');
    await page.getByLabel('Description').fill('Policies, notes and the glossary');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Company handbook' }));
    expect(new URL(page.url()).hash).toMatch(/^#\/datasets\/ds_/);
    // The shell still knows this is the Datasets page.
    await eventually(() => mainNavLink(page, 'Datasets').getAttribute('aria-current')).toBe('page');
    await visible(page.getByText('No files yet'));
  });

  it('uploads several files with progress, then each becomes ready or says why it failed', async () => {
    await page.getByLabel('Files to upload').setInputFiles(Object.keys(FILES).map((name) => join(dir, name)));
    // One progress bar per file while its bytes are sent.
    await visible(page.getByRole('list', { name: 'Uploading' }));
    for (const name of Object.keys(FILES)) await visible(page.getByRole('progressbar', { name: `Uploading ${name}` }));
    for (const name of ['handbook.md', 'notes.txt', 'glossary.md']) await visible(row(name).getByText('Ready'), 20_000);
    const broken = row('broken.pdf');
    await visible(broken.getByText('Failed'), 20_000);
    await eventually(() => broken.textContent()).toMatch(/Could not be read|does not match|Unsupported|No text/);
    await visible(broken.getByRole('button', { name: 'Retry broken.pdf' }));
    await visible(broken.getByRole('button', { name: 'Remove broken.pdf' }));
    await visible(page.getByText('4 of 4 files sent'));
    expect(await inspectPage(page, 'dataset-artifacts')).toEqual([]);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('list', { name: 'Uploading' }).waitFor({ state: 'detached' });
  });

  it('filters the table by status', async () => {
    await page.getByLabel('Status').selectOption('failed');
    await visible(row('broken.pdf'));
    await row('handbook.md').waitFor({ state: 'detached' });
    await eventually(() => page.getByRole('row').count()).toBe(2);
    await page.getByLabel('Status').selectOption('ready');
    await visible(row('notes.txt'));
    await row('broken.pdf').waitFor({ state: 'detached' });
    await eventually(() => page.getByRole('row').count()).toBe(4);
    await page.getByLabel('Status').selectOption('all');
    await visible(row('broken.pdf'));
  });

  it('retries a failed file, which fails again for the same reason', async () => {
    await page.getByRole('button', { name: 'Retry broken.pdf' }).click();
    await visible(row('broken.pdf').getByText('Failed'), 20_000);
    await visible(row('broken.pdf').getByText('Could not be read'));
  });

  it('Export CSV saves every file of the dataset: name, type, size, status, added, chunks', async () => {
    // A filter narrows the table, not the export.
    await page.getByLabel('Status').selectOption('failed');
    const exported = async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toBe('Company handbook.csv');
      return readFileSync(await download.path(), 'utf8').split('\r\n');
    };
    // The file retried just before may still be processing: exported again until it has failed again.
    let lines: string[] = [];
    await eventually(async () => (lines = await exported()).find((line) => line.startsWith('broken.pdf,'))).toMatch(/^broken\.pdf,[^,]*,\d+,failed,\d{4}-\d\d-\d\dT[^,]+,0$/);
    await page.getByLabel('Status').selectOption('all');
    expect(lines[0]).toBe('name,type,size,status,added,chunks');
    expect(lines.slice(1, -1).map((line) => line.split(',')[0]).sort()).toEqual(Object.keys(FILES).sort());
    expect(lines.find((line) => line.startsWith('notes.txt,'))).toMatch(/,ready,[^,]+,[1-9]\d*$/);
  });

  it('removes a failed file after a confirmation; Cancel keeps it', async () => {
    await page.getByRole('button', { name: 'Remove broken.pdf' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Remove this file?' }));
    expect(await inspectPage(page, 'dataset-remove-confirm')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await visible(row('broken.pdf'));
    await page.getByRole('button', { name: 'Remove broken.pdf' }).click();
    await page.getByRole('dialog', { name: 'Remove this file?' }).getByRole('button', { name: 'Remove file' }).click();
    await row('broken.pdf').waitFor({ state: 'detached' });
    await visible(row('notes.txt'));
  });

  it('takes files dropped on the drop zone', async () => {
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['# Dropped\n\nA file dragged in from the desktop.'], 'dropped.md', { type: 'text/markdown' }));
      return transfer;
    });
    const zone = page.getByText('Drop files here');
    await zone.dispatchEvent('dragover', { dataTransfer });
    await zone.dispatchEvent('drop', { dataTransfer });
    await visible(row('dropped.md').getByText('Ready'), 20_000);
    await page.getByRole('button', { name: 'Remove dropped.md' }).click();
    await page.getByRole('dialog', { name: 'Remove this file?' }).getByRole('button', { name: 'Remove file' }).click();
    await row('dropped.md').waitFor({ state: 'detached' });
  });

  it('"Chat with this dataset" opens a new chat with the dataset chosen', async () => {
    await page.getByRole('button', { name: 'Chat with this dataset' }).click();
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    await visible(page.getByText('Datasets Company handbook'));
    await page.goBack();
  });

  it('lists the dataset as a card', async () => {
    await go('#/datasets', 'Datasets');
    const card = await visible(page.getByRole('link', { name: 'Company handbook' }));
    await visible(page.getByText('3 files'));
    expect(await inspectPage(page, 'datasets')).toEqual([]);
    await card.click();
    await visible(page.getByRole('heading', { level: 1, name: 'Company handbook' }));
  });

  it('pages a large dataset: Load more brings the next files', async () => {
    const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Many small notes' } });
    const dataset = (await created.json()) as { id: string; kb_id: string };
    const form = new FormData();
    for (let i = 1; i <= 55; i++) form.append('file', new Blob([`Note number ${i}: nothing much.`], { type: 'text/plain' }), `note-${String(i).padStart(2, '0')}.txt`);
    const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${suite.served.apiKey}` },
      body: form,
    });
    expect(upload.ok).toBe(true);

    await go(`#/datasets/${dataset.id}`, 'Many small notes');
    // Newest upload first: the last file of the form leads.
    await visible(row('note-55.txt'));
    // One page of 50, and the header row.
    await eventually(() => page.getByRole('row').count()).toBe(51);
    await page.getByRole('button', { name: 'Load more' }).click();
    await visible(row('note-01.txt'));
    await eventually(() => page.getByRole('row').count()).toBe(56);
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await suite.served.api(`/datasets/${dataset.id}`, { method: 'DELETE' });
    await go('#/datasets', 'Datasets');
    await visible(page.getByRole('link', { name: 'Company handbook' }));
    await page.getByRole('link', { name: 'Company handbook' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Company handbook' }));
  });

  it('cancels a large file while it is processed: it says Cancelled and offers Retry', async () => {
    const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Harbour ledger' } });
    const dataset = (await created.json()) as { id: string; kb_id: string };
    // Some 30 MB of text: seconds of indexing, while the test finds the file processing and cancels it.
    const lines = ['# Harbour ledger\n'];
    for (let i = 0; i < 300_000; i++) lines.push(`Entry ${i}: the dredger worked berth ${i % 97} of the north channel while tide ${i % 13} turned and the crane lifted crate ${i}.\n`);
    const form = new FormData();
    form.append('file', new Blob([lines.join('\n')], { type: 'text/markdown' }), 'ledger.md');
    const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${suite.served.apiKey}` }, body: form });
    expect(upload.ok).toBe(true);
    try {
      await go(`#/datasets/${dataset.id}`, 'Harbour ledger');
      await row('ledger.md').getByRole('button', { name: 'Cancel ledger.md' }).click();
      await visible(row('ledger.md').getByText('Cancelled'));
      await visible(row('ledger.md').getByText('You stopped its processing. Retry reads it again.'));
      await visible(row('ledger.md').getByRole('button', { name: 'Retry ledger.md' }));
      expect(await inspectAtWidths(page, 'dataset-file-cancelled')).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
    } finally {
      await suite.served.api(`/datasets/${dataset.id}`, { method: 'DELETE' });
    }
    await go('#/datasets', 'Datasets');
    await page.getByRole('link', { name: 'Company handbook' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Company handbook' }));
  });

  it('deletes the dataset after a confirmation that says what goes with it', async () => {
    await page.getByRole('button', { name: 'Delete dataset' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: /Delete “Company handbook”/ }));
    const text = (await dialog.textContent()) ?? '';
    expect(text).toMatch(/files/);
    expect(text).toMatch(/chunk/);
    expect(text).toMatch(/configurations/);
    expect(text).toMatch(/agent thoughts/);
    expect(await inspectPage(page, 'dataset-delete')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Delete dataset' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete dataset' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Datasets' }));
    await visible(page.getByRole('heading', { level: 2, name: 'Create your first dataset' }));
    expect(new URL(page.url()).hash).toBe('#/datasets');
    expect(pageProblems(page)).toEqual([]);
  });
});
