/**
 * Datasets, issue 11 item 10 and its brief: the newest upload first, file names that open the file
 * (a signed link: a tab cannot send the Bearer token), renaming, and members who see no Rename,
 * Upload, Retry or Remove on a dataset they cannot change. Issue 31 item 5: files over the size limit
 * are refused, before sending or by the service, and never counted as sent.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { brokenWords } from './support/layout.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let dataset: { id: string; kb_id: string };

async function addFile(name: string, text: string, type = 'text/plain') {
  const form = new FormData();
  form.append('file', new Blob([text], { type }), name);
  const res = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.served.apiKey}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

const rowKeys = (p: Page) => p.getByRole('table', { name: 'Files in this dataset' }).locator('tbody th').allTextContents();

beforeAll(async () => {
  const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Field notes', description: 'Notes from the site visits' } });
  dataset = (await created.json()) as { id: string; kb_id: string };
  await addFile('monday.txt', 'Monday: the north gate is closed for repairs.');
  await addFile('tuesday.md', '# Tuesday\n\nThe crane arrives at seven.', 'text/markdown');
  await addFile('wednesday.txt', 'Wednesday: inspection passed, concrete poured.');
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

describe('the files of a dataset', () => {
  it('lists the newest upload first', async () => {
    await page.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
    await visible(page.getByRole('heading', { level: 1, name: 'Field notes' }));
    await expect.poll(() => rowKeys(page)).toEqual(['wednesday.txt', 'tuesday.md', 'monday.txt']);
    await addFile('thursday.txt', 'Thursday: steel delivered.');
    await page.reload();
    await expect.poll(() => rowKeys(page)).toEqual(['thursday.txt', 'wednesday.txt', 'tuesday.md', 'monday.txt']);
    await visible(page.getByRole('row', { name: /thursday\.txt/ }).getByText('Ready'), 20_000);
  });

  it('opens a file from its name in a new tab, without the token in the address', async () => {
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('button', { name: 'tuesday.md', exact: true }).click()]);
    await tab.waitForLoadState();
    await expect.poll(() => tab.locator('body').textContent()).toContain('The crane arrives at seven.');
    expect(tab.url()).toContain('/content?expires=');
    expect(tab.url()).not.toContain(suite.served.apiKey);
    await tab.close();
  });

  it('renames the dataset; an empty name is refused under its field', async () => {
    await page.getByRole('button', { name: 'Rename' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Rename dataset' }));
    await dialog.getByLabel('Name').fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(dialog.getByText('Give the dataset a name.'));
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Name').fill('Site notes');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await visible(page.getByRole('heading', { level: 1, name: 'Site notes' }));
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it('looks right for its owner at 1440 and 420 px, light and dark', async () => {
    expect(await inspectAtWidths(page, 'dataset-files-owner')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });

  it('a member reads and opens files, and is offered no change', async () => {
    const created = await suite.served.api('/admin/users', { method: 'POST', body: { email: 'reader@example.com', name: 'Rita Reader' } });
    const { api_key } = (await created.json()) as { api_key: { key: string } };
    const member = await suite.open();
    await signIn(member, api_key.key);
    await member.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
    await visible(member.getByRole('heading', { level: 1, name: 'Site notes' }));
    await visible(member.getByText('You can read this dataset and chat with it.'));
    await expect.poll(() => rowKeys(member)).toEqual(['thursday.txt', 'wednesday.txt', 'tuesday.md', 'monday.txt']);
    await visible(member.getByRole('button', { name: 'Chat with this dataset' }));
    expect(await member.getByRole('button', { name: /^(Rename|Delete dataset|Choose files|Retry|Remove)/ }).count()).toBe(0);
    expect(await member.getByText('Drop files here').count()).toBe(0);

    const [tab] = await Promise.all([member.context().waitForEvent('page'), member.getByRole('button', { name: 'monday.txt', exact: true }).click()]);
    await expect.poll(() => tab.locator('body').textContent()).toContain('the north gate is closed');
    await tab.close();

    expect(await inspectAtWidths(member, 'dataset-files-member')).toEqual([]);
    expect(pageProblems(member)).toEqual([]);
  });

  it('says why a file was refused in words for whoever reads it; only the admin is shown the config key', async () => {
    const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Refused files' } });
    const refused = (await created.json()) as { id: string; kb_id: string };
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    for (const [name, bytes, type] of [['photo.png', png, 'image/png'], ['tides.tsv', Buffer.from('harbour\tdepth\nnorth\t12\n'), 'text/tab-separated-values']] as const) {
      const form = new FormData();
      form.append('file', new Blob([Uint8Array.from(bytes)], { type }), name);
      const res = await fetch(`${suite.served.url}/api/knowledge-bases/${refused.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${suite.served.apiKey}` }, body: form });
      expect(res.status).toBe(201);
    }
    const user = await suite.served.api('/admin/users', { method: 'POST', body: { email: 'mo@example.com', name: 'Mo Member' } });
    const member = await suite.open();
    await signIn(member, ((await user.json()) as { api_key: { key: string } }).api_key.key);
    await member.goto(`${suite.served.url}/#/datasets/${refused.id}`);
    const tsv = member.getByRole('row', { name: /tides\.tsv/ });
    await visible(tsv.getByText('This file type (text/tab-separated-values) is not accepted here; ask an admin.'), 20_000);
    await visible(member.getByRole('row', { name: /photo\.png/ }).getByText(/^Images are not supported yet/));
    expect(await member.getByText(/allowed_types/).count()).toBe(0);

    await page.goto(`${suite.served.url}/#/datasets/${refused.id}`);
    await visible(page.getByRole('row', { name: /tides\.tsv/ }).getByText('Admins choose the accepted types in Settings, under [uploads] allowed_types.'));
    expect(await page.getByRole('row', { name: /photo\.png/ }).getByText(/allowed_types/).count()).toBe(0);
    expect(pageProblems(member)).toEqual([]);
  });

  it('refuses a file over the size limit before sending it, and one the service refuses, never counting them as sent', async () => {
    const setMaxFileMb = async (mb: number) => {
      const state = (await (await suite.served.api('/admin/config')).json()) as { version: number };
      const res = await suite.served.api('/admin/config', { method: 'PATCH', body: { values: { 'uploads.max_file_mb': mb }, base_version: state.version } });
      expect(res.status).toBe(200);
    };
    const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Large scans' } });
    const large = (await created.json()) as { id: string };
    await setMaxFileMb(0.01);
    const text = (name: string, bytes: number) => ({ name, mimeType: 'text/plain', buffer: Buffer.alloc(bytes, 'site log line. ') });
    try {
      await page.goto(`${suite.served.url}/#/datasets/${large.id}`);
      await visible(page.getByText('up to 10 KB each'));
      const input = page.getByLabel('Files to upload');
      // The picker offers only the allowed types.
      expect((await input.getAttribute('accept'))?.split(',')).toEqual(expect.arrayContaining(['application/pdf', 'text/markdown', '.md', '.txt']));

      await input.setInputFiles([text('small.txt', 2000), text('scan.txt', 20_000), text('notes.txt', 3000)]);
      await visible(page.getByText('2 of 3 files sent · 1 refused: too large (20 KB, the limit is 10 KB)'));
      await visible(page.getByRole('list', { name: 'Uploading' }).getByText('Not sent: too large (20 KB, the limit is 10 KB)'));
      await visible(page.getByRole('row', { name: /notes\.txt/ }).getByText('Ready'), 20_000);
      // Never sent, so never in the dataset.
      expect(await page.getByRole('row', { name: /scan\.txt/ }).count()).toBe(0);
      expect(await inspectAtWidths(page, 'dataset-upload-refused')).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.getByRole('button', { name: 'Clear' }).click();

      // The limit lowered after the page read it: the service refuses the file, which is not reported sent.
      await setMaxFileMb(0.001);
      await input.setInputFiles([text('later.txt', 5000)]);
      await visible(page.getByText(/^0 of 1 file sent · 1 refused: /));
      await visible(page.getByRole('list', { name: 'Uploading' }).getByText(/^Not sent: .*the limit is 0\.001 MB/));
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await setMaxFileMb(100);
    }
  });

  it('at 420 px a long file name wraps between its words, and a name without spaces stays in its cell', async () => {
    const created = (await (await suite.served.api('/datasets', { method: 'POST', body: { name: 'Long names' } })).json()) as { id: string; kb_id: string };
    // A refused file's reason takes the width of its status cell, which leaves its name the least room.
    const spaced = 'Northwest decommissioning photograph.png';
    const unspaced = 'northwest_decommissioning_documentation_2026_final.txt';
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(png)], { type: 'image/png' }), spaced);
    form.append('file', new Blob(['Site log.'], { type: 'text/plain' }), unspaced);
    const res = await fetch(`${suite.served.url}/api/knowledge-bases/${created.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${suite.served.apiKey}` }, body: form });
    expect(res.status).toBe(201);
    await page.setViewportSize({ width: 420, height: 900 });
    await page.goto(`${suite.served.url}/#/datasets/${created.id}`);
    const table = page.getByRole('table', { name: 'Files in this dataset' });
    await visible(table.getByRole('row', { name: new RegExp(spaced) }).locator('.status-failed'), 20_000);
    await visible(table.getByRole('row', { name: new RegExp(unspaced) }).getByText('Ready'), 20_000);
    expect(await brokenWords(table.getByRole('rowheader', { name: new RegExp(spaced) }))).toEqual([]);
    // The name with no word to keep whole breaks where it must, rather than widening the table.
    expect(await table.evaluate((t) => (t.parentElement ? t.parentElement.scrollWidth <= t.parentElement.clientWidth : false))).toBe(true);
    expect(await inspectAtWidths(page, 'dataset-files-long-names')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });
});
