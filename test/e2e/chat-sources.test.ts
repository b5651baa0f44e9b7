import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makePdf } from '../fixtures/files/index.js';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { SCREENSHOT_DIR, e2eSuite, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';

/**
 * The chat's reading side: a cited source opens at its passage in its place (the PDF page, the CSV
 * rows under their header, the document section), and a thread with edited or regenerated
 * messages shows one branch with "‹ 2 / 2 ›" to step between versions.
 */
const suite = e2eSuite();
let page: Page;
let upstream: Upstream;
const models: Record<string, string> = {};
const datasets: Record<string, string> = {};

const filler = (topic: string, n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} about ${topic} says little that matters here, at some length.`).join(' ');
const HANDBOOK = `# Handbook\n\nWelcome to the company. ${filler('the welcome', 10)}\n\n## Allowances\n\nEvery employee receives a one-time home-office allowance of EUR 1,200.\n\nReceipts are kept for three years. ${filler('receipts', 6)}\n\n## Holidays\n\nThere are thirty days of paid holiday. ${filler('holidays', 10)}\n`;
const CSV = ['city,country,population', ...Array.from({ length: 30 }, (_, i) => (i === 14 ? 'Lima,Peru,10000000' : `Town ${i + 1},Nowhere,${1000 + i}`))].join('\n');
const lines = (topic: string, n: number) => Array.from({ length: n }, (_, i) => [`Line ${i + 1} on ${topic} carries words enough to keep snippets short.`]);

async function addModel(name: string, model: string): Promise<void> {
  const res = await suite.served.api('/models', { body: { name, provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'test-key', model } });
  expect(res.status).toBe(201);
  models[name] = ((await res.json()) as { id: string }).id;
}

async function addDataset(name: string, key: string, bytes: string | Uint8Array<ArrayBuffer>, type: string): Promise<void> {
  const dataset = (await (await suite.served.api('/datasets', { body: { name } })).json()) as { id: string; kb_id: string };
  datasets[name] = dataset.id;
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), key);
  const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${suite.served.apiKey}` } });
  expect(upload.status).toBe(201);
  await vi.waitFor(
    async () => {
      const artifact = (await (await suite.served.api(`/knowledge-bases/${dataset.kb_id}/artifacts/${key}`)).json()) as { status: string };
      if (artifact.status !== 'ready') throw new Error(`${key} is ${artifact.status}`);
    },
    { timeout: 30_000, interval: 50 },
  );
}

const composer = () => page.getByLabel('Message', { exact: true });
const answers = () => page.getByRole('article', { name: 'Answer' });
const lastAnswer = () => answers().last();
const idle = () => expect.poll(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);

async function ask(text: string, model: string, dataset?: string): Promise<void> {
  await page.goto(`${suite.served.url}/#/chat`);
  await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
  if (dataset) await page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: new RegExp(dataset) }).click();
  await page.getByLabel('Model').selectOption(models[model] ?? model);
  await composer().fill(text);
  await composer().press('Enter');
  await idle();
}

/** Opens source [1] of the last answer and answers its viewer once the file's view is in. */
async function openSource() {
  await lastAnswer().getByRole('button', { name: /^Source 1: / }).click();
  const viewer = lastAnswer().locator('.citation[open] .source-view');
  await visible(viewer);
  return viewer;
}

beforeAll(async () => {
  upstream = await startUpstream();
  await addModel('Citing', 'fixed:Here is what the file says [1].');
  await addModel('Echo', 'echo');
  await addModel('Context', 'context');
  await addDataset('Handbook', 'handbook.md', HANDBOOK, 'text/markdown');
  await addDataset('Cities', 'cities.csv', CSV, 'text/csv');
  const pdf = await makePdf([
    [['Quarterly report for the northern region.'], ...lines('revenue', 6)],
    [['Page two talks about costs.'], ...lines('spending', 4), ['Costs fell by four percent because of the new warehouse.'], ['Staffing stayed the same.'], ...lines('staff', 4)],
    [['Page three is the outlook.'], ...lines('the outlook', 6), ['Remote staff who work from home receive, after their probation period ends,', 'an equipment allowance of EUR 1,200 per year.']],
  ]);
  await addDataset('Report', 'report.pdf', new Uint8Array(pdf), 'application/pdf');
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
}, 90_000);
afterAll(async () => {
  await upstream.close();
});

describe('a cited source opens at its passage', () => {
  it('a Markdown source shows its section with the passage marked, and says where in words', async () => {
    await ask('How much is the home-office allowance?', 'Citing', 'Handbook');
    const viewer = await openSource();
    await expect.poll(() => viewer.locator('mark').first().textContent()).toContain('EUR 1,200');
    const text = (await viewer.textContent()) ?? '';
    expect(text).not.toContain('thirty days of paid holiday');
    const where = (await lastAnswer().locator('.citation[open] .citation-where').textContent()) ?? '';
    expect(where).toContain('§ Handbook > Allowances');
    expect(where).not.toMatch(/\d+\s*[–-]\s*\d+|offset|start/);
    expect(await inspectAtWidths(page, 'chat-source-section')).toEqual([]);
  });

  it('a CSV source shows the rows around the passage under the header, its rows marked', async () => {
    await ask('What is the population of Lima in Peru?', 'Citing', 'Cities');
    const viewer = await openSource();
    const table = await visible(viewer.getByRole('table'));
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Row', 'city', 'country', 'population']);
    const cited = table.locator('tr.source-row-cited');
    await expect.poll(() => cited.allTextContents()).toContainEqual(expect.stringContaining('Lima'));
    const where = (await lastAnswer().locator('.citation[open] .citation-where').textContent()) ?? '';
    expect(where).toMatch(/rows? \d+(–\d+)? of 30/);
    // The source's heading and its viewer name the same rows, and those are the rows marked.
    const heading = (await lastAnswer().locator('.citation[open] summary .citation-location').textContent()) ?? '';
    const [, first, last] = /rows? (\d+)(?:–(\d+))?/.exec(heading) ?? [];
    expect(first).toBeDefined();
    expect(where).toContain(`${heading.replace(/^\s*·\s*/, '')} of 30`);
    expect(await cited.count()).toBe(Number(last ?? first) - Number(first) + 1);
    expect(await inspectAtWidths(page, 'chat-source-rows')).toEqual([]);
  });

  it('a PDF source shows its pages, the passage marked, "pages 1–2 of 3" as its source names them', async () => {
    await ask('Why did costs fall at the warehouse?', 'Citing', 'Report');
    const viewer = await openSource();
    await expect.poll(() => viewer.locator('mark').first().textContent()).toContain('warehouse');
    const text = (await viewer.textContent()) ?? '';
    expect(text).toContain('Page two talks about costs.');
    expect(text).not.toContain('Page three is the outlook.');
    expect(await lastAnswer().locator('.citation[open] .citation-where').textContent()).toContain('pages 1–2 of 3');
    expect(await inspectAtWidths(page, 'chat-source-page')).toEqual([]);
  });

  it('a PDF source marks the whole sentence quoted, "EUR 1,200" included, and Sources and the viewer name the same pages', async () => {
    await ask('What equipment allowance do remote staff working from home receive?', 'Citing', 'Report');
    const viewer = await openSource();
    await expect.poll(() => viewer.locator('mark').first().textContent()).toContain('an equipment allowance of EUR 1,200 per year.');
    const heading = ((await lastAnswer().locator('.citation[open] summary .citation-location').textContent()) ?? '').replace(/^\s*·\s*/, '');
    expect(heading).toMatch(/^pages? \d/);
    expect(await lastAnswer().locator('.citation[open] .citation-where').textContent()).toContain(`${heading} of 3`);
  });
});

describe('files attached in the composer', () => {
  it('go into the chat’s own files, ready before the question is answered, and the answer cites them; a refused file says why', async () => {
    await page.goto(`${suite.served.url}/#/chat`);
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    await page.getByLabel('Model').selectOption(models.Citing ?? '');
    const picker = page.getByLabel('Files to attach');
    const chip = (name: string) => page.getByRole('list', { name: 'Attached files' }).getByRole('listitem').filter({ hasText: name });

    // A type nothing reads, and a name longer than any file system allows: each chip says why, the chat keeps going.
    const long = `${'very-long-name-'.repeat(20)}.md`;
    await picker.setInputFiles([
      { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ\x90\x00 not a document') },
      { name: long, mimeType: 'text/markdown', buffer: Buffer.from('# Long\n\nA name too long.\n') },
    ]);
    // Attaching made the chat's thread: the files have a home, and the chat goes on in it.
    await expect.poll(() => page.url()).toMatch(/#\/chat\/thr_/);
    await expect.poll(() => chip('setup.exe').getAttribute('data-state'), { timeout: 15_000 }).toBe('failed');
    await expect.poll(() => chip('very-long-name').getAttribute('data-state'), { timeout: 15_000 }).toBe('failed');
    expect(await chip('setup.exe').locator('.attachment-status').textContent()).not.toBe('');
    await page.getByRole('button', { name: 'Remove setup.exe' }).click();
    await chip('very-long-name').getByRole('button', { name: /^Remove / }).click();
    expect(await page.getByRole('list', { name: 'Attached files' }).count()).toBe(0);

    // Sent at once: the message waits for the file, then the answer cites it.
    await picker.setInputFiles({ name: 'ferry-times.md', mimeType: 'text/markdown', buffer: Buffer.from('# Ferry\n\nThe last ferry to the island leaves at 22:40 from pier 3.\n') });
    await visible(chip('ferry-times.md'));
    await composer().fill('When does the last ferry to the island leave?');
    await composer().press('Enter');
    await visible(lastAnswer());
    await idle();
    await visible(lastAnswer().getByRole('button', { name: /^Source 1: .*ferry-times\.md/ }));
    expect(await page.getByRole('list', { name: 'Attached files' }).count()).toBe(0);

    // Dropped anywhere on the chat (the composer shows where it lands) and pasted into the box: attached the same way.
    const transfer = (name: string, type: string, text: string) =>
      page.evaluateHandle(([n, t, x]) => {
        const data = new DataTransfer();
        data.items.add(new File([x], n, { type: t }));
        return data;
      }, [name, type, text] as const);
    const dropped = await transfer('tide-tables.md', 'text/markdown', '# Tides\n\nHigh tide at 06:12 and 18:40.\n');
    await page.dispatchEvent('.chat-main', 'dragover', { dataTransfer: dropped });
    await visible(page.getByText('Drop files to attach them to this chat'));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/chat-attachments-drop.png` });
    await page.dispatchEvent('.chat-main', 'drop', { dataTransfer: dropped });
    const pasted = await transfer('setup.exe', 'application/x-msdownload', 'MZ not a document');
    await composer().evaluate((box, clipboardData) => box.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true })), pasted);
    await expect.poll(() => chip('tide-tables.md').getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
    await expect.poll(() => chip('setup.exe').getAttribute('data-state'), { timeout: 15_000 }).toBe('failed');
    try {
      expect(await inspectAtWidths(page, 'chat-attachments')).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});

describe('branches', () => {
  it('edit and regenerate make versions; "‹ 2 / 2 ›" switches, and a new message goes on from the branch shown', async () => {
    await ask('one', 'Echo');
    await composer().fill('two, with a typo');
    await composer().press('Enter');
    await idle();
    await page.getByRole('article', { name: 'You said' }).last().getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Edit your message').fill('two, fixed');
    await page.getByLabel('Edit your message').press('Enter');
    await idle();
    const said = () => page.getByRole('article', { name: 'You said' }).locator('.bubble').allTextContents();
    await expect.poll(said).toEqual(['one', 'two, fixed']);
    const versions = page.getByRole('group', { name: 'Versions of this message' });
    await expect.poll(() => versions.textContent()).toMatch(/2\s*\/?\s*(of)?\s*2/);
    expect(await inspectAtWidths(page, 'chat-branches')).toEqual([]);

    // Back to the first version: its own answer comes with it.
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(said).toEqual(['one', 'two, with a typo']);
    expect(await answers().count()).toBe(2);
    expect(await versions.getByRole('button', { name: 'Previous version' }).isDisabled()).toBe(true);

    // Going on from here: the model sees this branch, not the newer edit.
    await page.getByLabel('Model').selectOption(models.Context ?? '');
    await composer().fill('three');
    await composer().press('Enter');
    await idle();
    await expect.poll(said).toEqual(['one', 'two, with a typo', 'three']);
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toMatch(/user: two, with a typo, .*user: three$/);

    // A regenerated answer is a version of the answer; while it is written, the switchers wait.
    await page.getByLabel('Model').selectOption(models.Echo ?? '');
    await lastAnswer().getByRole('button', { name: 'Regenerate', exact: true }).click();
    await idle();
    const answerVersions = lastAnswer().getByRole('group', { name: 'Answers to this message' });
    await visible(answerVersions);
    expect(await answerVersions.getByRole('button', { name: 'Next answer' }).isDisabled()).toBe(true);
    await answerVersions.getByRole('button', { name: 'Previous answer' }).click();
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toMatch(/user: three$/);
  });
});

describe('a narrow window', () => {
  it('names the thread above it and starts a new chat from there; an open table source scrolls inside, never the page', async () => {
    await ask('What is the population of Lima in Peru?', 'Citing', 'Cities');
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      // The thread's name, as its model wrote it after the answer (the fixture model says its one answer again).
      await expect.poll(() => page.locator('.thread-drawer-title').textContent()).toBe('Here is what the file says');
      await openSource();
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await sideways()).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Start a new chat' }).click();
      await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
      await expect.poll(() => page.locator('.thread-drawer-title').textContent()).toBe('New chat');
      expect(await page.getByRole('button', { name: 'Start a new chat' }).count()).toBe(0);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
