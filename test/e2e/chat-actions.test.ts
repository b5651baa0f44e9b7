import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;
const models: Record<string, string> = {};

const TABLE_ANSWER = 'Here:\n\n| Fruit | Season |\n| --- | --- |\n| Apple | Autumn |\n| Cherry | Summer |\n\n```sh\nnpm run build\n```';

async function addModel(name: string, model: string): Promise<void> {
  const res = await suite.served.api('/models', { body: { name, provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, api_key: 'test-key', model } });
  expect(res.status).toBe(201);
  models[name] = ((await res.json()) as { id: string }).id;
}

/** A dataset with two files, processed: an answer that cites one of them lists only that one. */
async function addDataset(): Promise<void> {
  const res = await suite.served.api('/datasets', { body: { name: 'Village' } });
  const dataset = (await res.json()) as { id: string; kb_id: string };
  const form = new FormData();
  form.append('file', new Blob(['# Lighthouse\n\n## Lamp\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick.\n'], { type: 'text/markdown' }), 'lighthouse.md');
  form.append('file', new Blob(['# Bakery\n\nThe lighthouse keeper buys bread at the bakery at dawn.\n'], { type: 'text/markdown' }), 'bakery.md');
  const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', body: form, headers: { authorization: `Bearer ${suite.served.apiKey}` } });
  expect(upload.status).toBe(201);
  for (const key of ['lighthouse.md', 'bakery.md']) {
    await vi.waitFor(
      async () => {
        const artifact = (await (await suite.served.api(`/knowledge-bases/${dataset.kb_id}/artifacts/${key}`)).json()) as { status: string };
        if (artifact.status !== 'ready') throw new Error(`${key} is ${artifact.status}`);
      },
      { timeout: 20_000, interval: 50 },
    );
  }
}

const composer = () => page.getByLabel('Message', { exact: true });
const answers = () => page.getByRole('article', { name: 'Answer' });
const lastAnswer = () => answers().last();
const idle = () => expect.poll(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);

async function newChat(): Promise<void> {
  await page.goto(`${suite.served.url}/#/chat`);
  await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
}

async function ask(text: string, model: string): Promise<void> {
  await page.getByLabel('Model').selectOption(models[model] ?? model);
  await composer().fill(text);
  await composer().press('Enter');
}

/** Screenshots and axe at the two widths the issue names, in light and dark. */
async function inspectBoth(name: string): Promise<string[]> {
  const found: string[] = [];
  for (const width of [1440, 420]) {
    await page.setViewportSize({ width, height: 900 });
    found.push(...(await inspectPage(page, `${name}-${width}`)));
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  return found;
}

beforeAll(async () => {
  upstream = await startUpstream();
  await addModel('Echo', 'echo');
  await addModel('Context', 'context');
  await addModel('Slow', 'slow:150');
  await addModel('Failing', 'fail-mid:3');
  await addModel('Table', `fixed:${TABLE_ANSWER}`);
  await addModel('Citing', 'fixed:The keeper lights the lamp at dusk [1].');
  await addDataset();
  const context = await suite.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  page = await suite.open('', { context });
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  await upstream.close();
});

describe('message actions', () => {
  it('copies a message, an answer and a code block; tables render as tables', async () => {
    await newChat();
    await ask('Fruit by season', 'Table');
    await idle();
    const table = await visible(lastAnswer().getByRole('table'));
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Fruit', 'Season']);
    expect(await table.getByRole('cell').allTextContents()).toEqual(['Apple', 'Autumn', 'Cherry', 'Summer']);

    await lastAnswer().getByRole('button', { name: 'Copy code' }).click();
    await visible(lastAnswer().getByRole('button', { name: 'Copied' }));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('npm run build\n');

    await lastAnswer().getByRole('button', { name: 'Copy answer' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(TABLE_ANSWER);
    await page.getByRole('article', { name: 'You said' }).getByRole('button', { name: 'Copy message' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Fruit by season');
    expect(await inspectBoth('chat-table')).toEqual([]);
  });

  it('regenerates an answer with another model; the old answer stays, and actions wait while it is written', async () => {
    await newChat();
    await ask('first question', 'Echo');
    await idle();
    await lastAnswer().getByLabel('Regenerate with…').click();
    const menu = page.getByRole('group', { name: 'Answer again with' });
    await menu.getByRole('button', { name: 'Slow' }).click();
    // While the new answer is written, the input and the other actions are disabled.
    await expect.poll(() => composer().isDisabled()).toBe(true);
    expect(await page.getByRole('article', { name: 'You said' }).getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
    await idle();
    // One branch is shown: the new answer, with "‹ 2 / 2 ›" to step back to the old one, which is kept.
    expect(await answers().count()).toBe(1);
    expect(await lastAnswer().locator('.markdown').textContent()).toBe('one two three four five six seven eight nine ten');
    await visible(lastAnswer().getByText('Slow (chosen)'));
    await lastAnswer().getByRole('button', { name: 'Previous answer' }).click();
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toBe('You said: first question');
  });

  it('edits a message: the new version and its answer come after, the old ones kept', async () => {
    await newChat();
    await ask('one', 'Echo');
    await idle();
    await ask('two, with a typo', 'Context');
    await idle();
    await page.getByRole('article', { name: 'You said' }).last().getByRole('button', { name: 'Edit' }).click();
    const field = page.getByLabel('Edit your message');
    await field.fill('two, fixed');
    expect(await inspectBoth('chat-edit')).toEqual([]);
    await field.press('Enter');
    await idle();
    const said = () => page.getByRole('article', { name: 'You said' }).locator('.bubble').allTextContents();
    expect(await said()).toEqual(['one', 'two, fixed']);
    // The model saw the branch: the first exchange and the new question, not the old one.
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toBe('3 messages: user: one, assistant: You said: one, user: two, fixed');
    // The old version is kept, one step back.
    await page.getByRole('article', { name: 'You said' }).last().getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(said).toEqual(['one', 'two, with a typo']);
  });

  it('an error is a plain sentence with Retry; Continue goes on from the kept text', async () => {
    await newChat();
    await ask('Count for me', 'Failing');
    const problem = await visible(lastAnswer().getByRole('alert'));
    expect(await problem.locator('.answer-problem-text').textContent()).toBe('The model stopped answering before it was done. What it wrote so far is kept.');
    expect(await problem.innerText()).not.toMatch(/terminated|broke off/);
    expect(await inspectBoth('chat-error-actions')).toEqual([]);
    await page.getByLabel('Model').selectOption(models.Echo ?? '');
    await problem.getByRole('button', { name: 'Continue' }).click();
    await idle();
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toMatch(/^w1 w2 w3You said: Your answer above was cut off/);
    expect(await answers().count()).toBe(1);
    expect(await lastAnswer().getByRole('alert').count()).toBe(0);
  });

  it('Retry answers again after an error', async () => {
    await newChat();
    await ask('Count again', 'Failing');
    const problem = await visible(lastAnswer().getByRole('alert'));
    await page.getByLabel('Model').selectOption(models.Echo ?? '');
    await problem.getByRole('button', { name: 'Retry' }).click();
    await idle();
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toBe('You said: Count again');
  });
});

describe('sources, composer, popovers and threads', () => {
  it('lists only the cited source; the inline [1] opens it at the passage with a human location', async () => {
    await newChat();
    await page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }).click();
    await ask('When does the lighthouse keeper light the lamp?', 'Citing');
    await idle();
    const sources = lastAnswer().locator('.citation');
    expect(await sources.count()).toBe(1);
    await lastAnswer().getByRole('button', { name: /^Source 1: / }).click();
    const open = lastAnswer().locator('.citation[open]');
    await visible(open.locator('mark'));
    const summary = (await open.locator('summary').textContent()) ?? '';
    expect(summary).not.toMatch(/start|end \d/);
    expect(await inspectBoth('chat-sources')).toEqual([]);
  });

  it('the composer grows with its text up to a limit', async () => {
    await newChat();
    const before = (await composer().boundingBox())?.height ?? 0;
    await composer().fill(Array.from({ length: 6 }, (_, i) => `line ${i}`).join('\n'));
    const grown = (await composer().boundingBox())?.height ?? 0;
    expect(grown).toBeGreaterThan(before + 40);
    await composer().fill(Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n'));
    expect((await composer().boundingBox())?.height ?? 0).toBeLessThanOrEqual(242);
    await composer().fill('');
  });

  it('the datasets popover closes on Esc, on an outside click and on send', async () => {
    await newChat();
    const picker = page.locator('.dataset-picker');
    const isOpen = () => picker.evaluate((el) => (el as HTMLDetailsElement).open);
    await picker.locator('summary').click();
    expect(await isOpen()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await isOpen()).toBe(false);
    await picker.locator('summary').click();
    await page.getByRole('heading', { name: 'What would you like to know?' }).click();
    expect(await isOpen()).toBe(false);
    await picker.locator('summary').click();
    await picker.getByLabel('Village').check();
    await ask('popover closes', 'Echo');
    await expect.poll(isOpen).toBe(false);
    await idle();
  });

  it('threads are grouped by date; a workflow can be picked in chat', async () => {
    const res = await suite.served.api('/workflows', { body: { name: 'Pirate', system_prompt: 'Talk like a pirate.' } });
    expect(res.status).toBe(201);
    await newChat();
    await visible(page.getByRole('navigation', { name: 'Threads' }).getByRole('heading', { name: 'Today' }));
    await page.reload();
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    await page.getByLabel('Workflow').selectOption({ label: 'Pirate' });
    await ask('Ahoy', 'Context');
    await idle();
    await expect.poll(() => lastAnswer().locator('.markdown').textContent()).toMatch(/^2 messages: system: Talk like a pirate\./);
    expect(pageProblems(page)).toEqual([]);
  });
});
