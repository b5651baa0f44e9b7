/**
 * Datasets, issue 11 item 10 and its brief: the newest upload first, file names that open the file
 * (a signed link: a tab cannot send the Bearer token), renaming, and members who see no Rename,
 * Upload, Retry or Remove on a dataset they cannot change.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
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
});
