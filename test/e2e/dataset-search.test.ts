import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let page: Page;
let dataset: { id: string; kb_id: string };

const FILES: Record<string, string> = {
  'handbook.md':
    `# Handbook\n\n## Allowances\n\nEvery employee receives a one-time home-office allowance of EUR 1,200 for a desk, a chair and a screen.\n\n## Parking\n\n${'Park behind the building; the front is for visitors and deliveries. '.repeat(30)}`,
  'notes.txt': 'Quarterly notes: revenue grew, the team shipped the new importer, and support tickets went down.',
  // Chinese and Japanese put no spaces between words: a word from inside a sentence must still be found.
  'offices.txt': '公司允许每周两天远程办公。设备补贴是一千二百欧元。\n\n会議室は総務部が管理します。予約は不要です。',
};

beforeAll(async () => {
  const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Handbook' } });
  dataset = (await created.json()) as { id: string; kb_id: string };
  const form = new FormData();
  for (const [key, text] of Object.entries(FILES)) form.append('file', new Blob([text], { type: key.endsWith('.md') ? 'text/markdown' : 'text/plain' }), key);
  const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.served.apiKey}` },
    body: form,
  });
  expect(upload.status).toBe(201);
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
  await page.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
  await visible(page.getByRole('heading', { level: 1, name: 'Handbook' }));
  // Every file ready before searching it.
  for (const key of Object.keys(FILES)) await visible(page.getByRole('row', { name: new RegExp(key.replace('.', '\\.')) }).getByText('Ready'), 20_000);
});

describe('search inside a dataset', () => {
  it('finds the passage that answers a question, says where it is, and opens it whole', async () => {
    const search = page.getByRole('search');
    await search.getByLabel('Question or keywords').fill('home-office allowance');
    await search.getByRole('button', { name: 'Search' }).click();
    const results = page.locator('.dataset-search-results > li');
    await visible(results.first());
    const first = results.first();
    await eventually(() => first.locator('summary').textContent()).toMatch(/handbook\.md · § Handbook > Allowances/);
    // The matched words are marked in the snippet.
    await eventually(() => first.locator('mark').first().textContent()).toMatch(/home|office|allowance/i);
    await first.locator('summary').click();
    const passage = await visible(first.locator('blockquote'));
    await eventually(() => passage.textContent()).toMatch(/home-office allowance of EUR 1,200 for a desk, a chair and a screen/);
    await visible(page.getByRole('status').filter({ hasText: /passage.* · keyword search/ }));
    expect(await inspectPage(page, 'dataset-search')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('finds a Japanese word and a Chinese question’s words inside sentences and marks them', async () => {
    const search = page.getByRole('search');
    await search.getByLabel('Question or keywords').fill('会議室');
    await search.getByRole('button', { name: 'Search' }).click();
    const first = page.locator('.dataset-search-results > li').first();
    await eventually(() => first.locator('summary').textContent()).toMatch(/offices\.txt/);
    // Marked whole, though the index splits it into 会議 and 室; the particle は after it is not marked.
    await eventually(() => first.locator('.search-hit-snippet mark').allTextContents()).toEqual(['会議室']);

    // A Chinese question: its words (设备|补贴|是|多少) are marked where the passage has them.
    await search.getByLabel('Question or keywords').fill('设备补贴是多少？');
    await search.getByRole('button', { name: 'Search' }).click();
    await eventually(() => first.locator('.search-hit-snippet mark').allTextContents()).toEqual(['设备补贴是']);
  });

  it('says so when nothing matches', async () => {
    const search = page.getByRole('search');
    await search.getByLabel('Question or keywords').fill('zeppelin');
    await search.getByRole('button', { name: 'Search' }).click();
    await visible(page.getByText('No passage matches “zeppelin”', { exact: false }));
  });
});
