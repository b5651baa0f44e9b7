/**
 * File statuses update live for everyone viewing a dataset, whoever uploads: here a script over
 * HTTP (signed part URLs, as any API client uploads) while the owner and a member both look at the
 * dataset. The poll runs only while a file is not final: the owner's page runs on Playwright's
 * clock, so that "no request while everything is final" is shown by moving its time forward a
 * minute, not by waiting one.
 */
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, seriousA11yViolations, signIn, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();
let owner: Page;
let member: Page;
let dataset: { id: string; kb_id: string };
/** The owner page's reads of the file list, in order. */
const listReads: Request[] = [];

interface Upload {
  upload_id: string;
  files: Array<{ key: string; part_size: number; urls: Array<{ part: number; url: string }> }>;
}

const row = (page: Page, key: string) => page.getByRole('table', { name: 'Files in this dataset' }).getByRole('row', { name: new RegExp(key.replace('.', '\\.')) });

async function openDataset(page: Page) {
  await page.goto(`${suite.served.url}/#/datasets/${dataset.id}`);
  await visible(page.getByRole('heading', { level: 1, name: 'Site diary' }));
}

/** Stops the page's clock (a second ahead of its own time, firing what was due by then). */
const pauseClock = async (page: Page) => page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

/** One round trip through the page: whatever the page sent before it has reached the network log. */
const roundTrip = (page: Page) => page.evaluate(async () => void (await fetch('/api/health')));

beforeAll(async () => {
  const created = await suite.served.api('/datasets', { method: 'POST', body: { name: 'Site diary' } });
  dataset = (await created.json()) as { id: string; kb_id: string };
  const form = new FormData();
  form.append('file', new Blob(['Monday: the north gate is closed for repairs.'], { type: 'text/plain' }), 'monday.txt');
  const res = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.served.apiKey}` },
    body: form,
  });
  expect(res.status).toBe(201);

  const user = await suite.served.api('/admin/users', { method: 'POST', body: { email: 'site@example.com', name: 'Sam Site' } });
  const { api_key } = (await user.json()) as { api_key: { key: string } };

  owner = await suite.open('', { prepare: (page) => page.clock.install() });
  owner.on('request', (request) => {
    if (/\/api\/knowledge-bases\/[^/]+\/artifacts\?/.test(request.url()) && request.method() === 'GET') listReads.push(request);
  });
  await signIn(owner, suite.served.apiKey);
  member = await suite.open();
  await signIn(member, api_key.key);
  await openDataset(owner);
  await openDataset(member);
  for (const page of [owner, member]) await visible(row(page, 'monday.txt').getByText('Ready'), 20_000);
}, 60_000);

describe('a file uploaded by a script, as the people viewing the dataset see it', () => {
  let upload: Upload;
  const bytes = new TextEncoder().encode('Tuesday: the crane arrives at seven. '.repeat(200));

  it('appears when a viewer comes back to the window, and is followed while it is not final', async () => {
    const res = await suite.served.api('/uploads', { method: 'POST', body: { kb_id: dataset.kb_id, files: [{ key: 'tuesday.txt', filename: 'tuesday.txt', size: bytes.length }] } });
    expect(res.status).toBe(201);
    upload = (await res.json()) as Upload;

    // Coming back to the window (focus) reads the list again: the script's file is there, waiting for its bytes.
    for (const page of [owner, member]) {
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await visible(row(page, 'tuesday.txt').getByText('Waiting'));
    }

    // While it is not final, the owner's page reads the list every second of its clock.
    await pauseClock(owner);
    await roundTrip(owner);
    const before = listReads.length;
    await owner.clock.runFor(3_000);
    await eventually(() => listReads.length).toBeGreaterThanOrEqual(before + 2);
    await owner.clock.resume();
  });

  it('goes to Ready on every viewer’s page without a reload once the script completes the upload', async () => {
    const file = upload.files[0];
    if (!file) throw new Error('the upload has no file');
    for (const part of file.urls) {
      const slice = bytes.subarray((part.part - 1) * file.part_size, part.part * file.part_size);
      const put = await fetch(part.url, { method: 'PUT', body: slice });
      expect(put.status).toBeLessThan(300);
    }
    const done = await suite.served.api(`/uploads/${upload.upload_id}/complete`, { method: 'POST', body: {} });
    expect(done.status).toBe(200);
    for (const page of [owner, member]) await visible(row(page, 'tuesday.txt').getByText('Ready'), 20_000);
    for (const page of [owner, member]) expect(await row(page, 'monday.txt').textContent()).toContain('Ready');
  });

  it('stops reading the list once every file is final', async () => {
    // A last read may still be on its way when Ready shows: let it land first.
    await roundTrip(owner);
    await pauseClock(owner);
    await roundTrip(owner);
    const settledReads = listReads.length;
    await owner.clock.runFor(60_000);
    await roundTrip(owner);
    // A minute of the page's time, everything final: not one more read.
    expect(listReads.length).toBe(settledReads);
    await owner.clock.resume();
  });

  it('has no serious accessibility problem and no page error', async () => {
    // axe reads the page as it is once Ready shows: nothing is moving any more.
    expect(await seriousA11yViolations(member)).toEqual([]);
    expect(pageProblems(owner)).toEqual([]);
    expect(pageProblems(member)).toEqual([]);
  });
});
