import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidthsThenResize } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
/** A real folder on disk, as a person's notes folder would be: nested files, a hidden one, a log to skip. */
const parent = mkdtempSync(join(tmpdir(), 'parley-e2e-folders-'));
const folder = join(parent, 'Team notes');
const name = basename(folder);
const FILES: Record<string, string> = {
  'handbook.md': '# Handbook\n\nThe office opens at nine. Visitors sign in at the front desk.',
  'notes.txt': 'Quarterly notes: revenue grew and the importer shipped.',
  'guides/setup.md': '# Setup\n\nInstall the app, then sign in with your key.',
  'guides/.draft.md': 'A hidden draft: never followed.',
  'debug.log': 'a log the follow form is told to skip',
};

beforeAll(async () => {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(join(folder, path, '..'), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});

afterAll(() => rmSync(parent, { recursive: true, force: true }));

const row = (key: string) => page.getByRole('row', { name: new RegExp(key.replace(/[.]/g, '\\.')) });
const card = (): Locator => page.getByRole('list', { name: 'Followed folders' }).getByRole('listitem', { name });
const count = (label: string) => card().getByRole('term').filter({ hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd');

describe('a dataset following a folder on disk', () => {
  it('follows a folder typed as a path, skipping what the advanced globs exclude', async () => {
    const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Team notes' } });
    const dataset = (await created.json()) as { id: string; kb_id: string };
    // One uploaded file beside the folder's, for the source filter.
    const form = new FormData();
    form.append('file', new Blob(['Uploaded by hand: the parking rules.'], { type: 'text/plain' }), 'parking.txt');
    const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${suite.served.apiKey}` }, body: form });
    expect(upload.ok).toBe(true);

    // The server limits where folders may be: the form shows the admin those roots.
    const config = (await (await suite.served.api('/admin/config')).json()) as { version: number };
    const limited = await suite.served.api('/admin/config', { method: 'PATCH', body: { values: { 'folders.allowed_roots': [parent] }, base_version: config.version } });
    expect(limited.ok).toBe(true);

    await page.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
    await visible(page.getByRole('heading', { level: 1, name: 'Team notes' }));
    await visible(page.getByText('No folder yet.'));
    await page.getByRole('button', { name: 'Follow a folder' }).click();
    const follow = await visible(page.getByRole('form', { name: 'Follow a folder' }));
    // Following nothing says what to type, at the field.
    await follow.getByRole('button', { name: 'Follow folder' }).click();
    await visible(follow.getByText('Type the folder’s absolute path'));
    const roots = await visible(follow.getByRole('list', { name: 'Allowed roots' }));
    // A root starts the path with it.
    await roots.getByRole('button', { name: parent }).click();
    expect(await follow.getByLabel('Folder').inputValue()).toBe(`${parent}/`);
    await follow.getByLabel('Folder').fill(folder);
    await eventually(() => follow.getByText('Type the folder’s absolute path').count()).toBe(0);
    await follow.getByText('Advanced: which files join').click();
    await follow.getByLabel('Skip files matching').fill('*.log');
    expect(await inspectAtWidthsThenResize(page, 'dataset-folder-follow', { width: 1280, height: 800 })).toEqual([]);
    await follow.getByRole('button', { name: 'Follow folder' }).click();
    await follow.waitFor({ state: 'detached' });
    await visible(card());
  });

  it('shows the counts reach ready, and each file with its path in the folder and the folder mark', async () => {
    await eventually(() => count('Ready').textContent()).toBe('3');
    await eventually(() => card().getByText('In sync').count()).toBe(1);
    expect(await count('Found').textContent()).toBe('3');
    expect(await count('Failed').textContent()).toBe('0');
    await visible(card().getByText('Watching for changes'));
    await visible(card().getByText('Skipping *.log.'));
    for (const key of ['handbook.md', 'notes.txt', 'guides/setup.md']) {
      await visible(row(key).getByText('Ready'));
      await visible(row(key).getByText(`From folder ${name}`));
    }
    await visible(row('parking.txt').getByText('Ready'));
    expect(await row('parking.txt').getByText('From folder').count()).toBe(0);
    // The hidden draft and the skipped log never became files.
    expect(await row('.draft.md').count()).toBe(0);
    expect(await row('debug.log').count()).toBe(0);
    // A followed file leaves with its folder, not one by one: no Remove that the next change on disk would undo.
    expect(await page.getByRole('button', { name: 'Remove guides/setup.md' }).count()).toBe(0);
    await visible(page.getByRole('button', { name: 'Remove parking.txt' }));
    expect(await inspectAtWidthsThenResize(page, 'dataset-folder-ready', { width: 1280, height: 800 })).toEqual([]);
  });

  it('filters the file table by folder, by uploads, and back to everything', async () => {
    await page.getByLabel('From').selectOption({ label: name });
    await row('parking.txt').waitFor({ state: 'detached' });
    await visible(row('guides/setup.md'));
    await eventually(() => card().getByRole('button', { name: `Showing its files (${name})` }).getAttribute('aria-pressed')).toBe('true');
    await page.getByLabel('From').selectOption('uploads');
    await row('handbook.md').waitFor({ state: 'detached' });
    await visible(row('parking.txt'));
    await page.getByLabel('From').selectOption('all');
    await visible(row('handbook.md'));
    // The folder's own button filters too, and pressed again shows everything.
    await card().getByRole('button', { name: `Show its files (${name})` }).click();
    await row('parking.txt').waitFor({ state: 'detached' });
    await card().getByRole('button', { name: `Showing its files (${name})` }).click();
    await visible(row('parking.txt'));
  });

  it('pauses and resumes following', async () => {
    await card().getByRole('button', { name: `Pause ${name}` }).click();
    await visible(card().getByText('Paused', { exact: true }));
    await visible(card().getByText('changes on disk wait until you resume'));
    await card().getByRole('button', { name: `Resume ${name}` }).click();
    await visible(card().getByText('In sync'));
    await visible(card().getByRole('button', { name: `Pause ${name}` }));
  });

  it('stops following after a confirmation that says nothing on disk is touched; its files leave, the folder stays', async () => {
    await card().getByRole('button', { name: `Stop following ${name}` }).click();
    const dialog = await visible(page.getByRole('dialog', { name: `Stop following ${name}?` }));
    await visible(dialog.getByText('Nothing on disk is touched'));
    expect(await inspectPage(page, 'dataset-folder-remove-confirm')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await visible(card());
    await card().getByRole('button', { name: `Stop following ${name}` }).click();
    await page.getByRole('dialog', { name: `Stop following ${name}?` }).getByRole('button', { name: 'Stop following' }).click();
    await card().waitFor({ state: 'detached' });
    await row('guides/setup.md').waitFor({ state: 'detached' });
    await visible(row('parking.txt'));
    await visible(page.getByText('No folder yet.'));
    // Parley only ever read the folder.
    for (const [path, text] of Object.entries(FILES)) expect(readFileSync(join(folder, path), 'utf8')).toBe(text);
    expect(existsSync(folder)).toBe(true);
  });
});
