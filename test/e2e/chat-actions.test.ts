import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { SCREENSHOT_DIR, e2eSuite, pageProblems, signIn, visible } from './support/browser.js';
import { chatPage } from './support/chat-page.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidthsThenResize } from './support/widths.js';
import { addDataset, addModel } from './support/served-data.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;
const models: Record<string, string> = {};

const TABLE_ANSWER = 'Here:\n\n| Fruit | Season |\n| --- | --- |\n| Apple | Autumn |\n| Cherry | Summer |\n\n```sh\nnpm run build\n```';

const MATH_ANSWER = 'It costs $5 and $10.\n\n$$E=mc^2$$\n\nAnd $a^2+b^2=c^2$ inline, as LaTeX writes it: \\( x^2 \\).\n\n```python\nprint(1)\n```';

const { composer, answers, lastAnswer, newChat, ask } = chatPage(() => page, suite, models);
const idle = () => eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);

beforeAll(async () => {
  upstream = await startUpstream();
  models['Echo'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Echo', 'echo');
  models['Context'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Context', 'context');
  models['Slow'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Slow', 'slow:150');
  models['Failing'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Failing', 'fail-mid:3');
  models['Table'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Table', `fixed:${TABLE_ANSWER}`);
  models['Maths'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Maths', `fixed:${MATH_ANSWER}`);
  models['Citing'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Citing', 'fixed:The keeper lights the lamp at dusk [1].');
  // Two files: an answer that cites one of them lists only that one.
  await addDataset(suite.served, { name: 'Village' }, {
    'lighthouse.md': '# Lighthouse\n\n## Lamp\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick.\n',
    'bakery.md': '# Bakery\n\nThe lighthouse keeper buys bread at the bakery at dawn.\n',
  });
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
    await eventually(() => table.getByRole('columnheader').allTextContents()).toEqual(['Fruit', 'Season']);
    await eventually(() => table.getByRole('cell').allTextContents()).toEqual(['Apple', 'Autumn', 'Cherry', 'Summer']);

    await lastAnswer().getByRole('button', { name: 'Copy code' }).click();
    await visible(lastAnswer().getByRole('button', { name: 'Copied' }));
    await eventually(() => page.evaluate(() => navigator.clipboard.readText())).toBe('npm run build\n');

    await lastAnswer().getByRole('button', { name: 'Copy answer' }).click();
    await eventually(() => page.evaluate(() => navigator.clipboard.readText())).toBe(TABLE_ANSWER);
    await page.getByRole('article', { name: 'You said' }).getByRole('button', { name: 'Copy message' }).click();
    await eventually(() => page.evaluate(() => navigator.clipboard.readText())).toBe('Fruit by season');
    expect(await inspectAtWidthsThenResize(page, 'chat-table', { width: 1280, height: 800 })).toEqual([]);
  });

  it('draws LaTeX with KaTeX, leaves prices as text and labels code with its language', async () => {
    await newChat();
    await ask('Maths please', 'Maths');
    await idle();
    const answer = lastAnswer().locator('.markdown');
    // One display formula and two inline (dollars, and LaTeX's own \( \)); "$5 and $10" stays the sentence it is.
    await eventually(() => answer.locator('.katex-display').count()).toBe(1);
    await eventually(() => answer.locator('.katex').count()).toBe(3);
    await eventually(() => answer.locator('p').first().textContent()).toBe('It costs $5 and $10.');
    await visible(answer.locator('.katex-display .katex-mathml math'));
    // KaTeX's own font, bundled with the app (no CDN), is what draws it.
    await eventually(() => page.evaluate(() => document.fonts.check('1em KaTeX_Main') && [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'KaTeX_Main' && f.status === 'loaded'))).toBe(true);
    await visible(lastAnswer().locator('.md-code').getByText('python', { exact: true }));
    expect(await inspectAtWidthsThenResize(page, 'chat-maths', { width: 1280, height: 800 })).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('regenerates an answer with another model; the old answer stays, and actions wait while it is written', async () => {
    await newChat();
    await ask('first question', 'Echo');
    await idle();
    await lastAnswer().getByLabel('Regenerate with…').click();
    const menu = page.getByRole('group', { name: 'Answer again with' });
    await menu.getByRole('button', { name: 'Slow' }).click();
    // While the new answer is written, the input and the other actions are disabled.
    await eventually(() => composer().isDisabled()).toBe(true);
    await eventually(() => page.getByRole('article', { name: 'You said' }).getByRole('button', { name: 'Edit' }).isDisabled()).toBe(true);
    await idle();
    // One branch is shown: the new answer, with "‹ 2 / 2 ›" to step back to the old one, which is kept.
    await eventually(() => answers().count()).toBe(1);
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('one two three four five six seven eight nine ten');
    await visible(lastAnswer().getByText('Slow (chosen)'));
    await lastAnswer().getByRole('button', { name: 'Previous answer' }).click();
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('You said: first question');
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
    expect(await inspectAtWidthsThenResize(page, 'chat-edit', { width: 1280, height: 800 })).toEqual([]);
    await field.press('Enter');
    await idle();
    const said = () => page.getByRole('article', { name: 'You said' }).locator('.bubble').allTextContents();
    await eventually(said).toEqual(['one', 'two, fixed']);
    // The model saw the branch: the first exchange and the new question, not the old one.
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('3 messages: user: one, assistant: You said: one, user: two, fixed');
    // The old version is kept, one step back.
    await page.getByRole('article', { name: 'You said' }).last().getByRole('button', { name: 'Previous version' }).click();
    await eventually(said).toEqual(['one', 'two, with a typo']);
  });

  it('an error is a plain sentence with Retry; Continue goes on from the kept text with the model that wrote it, not the picker\'s', async () => {
    await newChat();
    await ask('Count for me', 'Failing');
    const problem = await visible(lastAnswer().getByRole('alert'));
    await eventually(() => problem.locator('.answer-problem-text').textContent()).toBe('The model stopped answering before it was done. What it wrote so far is kept.');
    await eventually(() => problem.innerText()).not.toMatch(/terminated|broke off/);
    expect(await inspectAtWidthsThenResize(page, 'chat-error-actions', { width: 1280, height: 800 })).toEqual([]);
    await page.getByLabel('Model').selectOption(models.Echo ?? '');
    await problem.getByRole('button', { name: 'Continue' }).click();
    await idle();
    // Failing went on (and broke off again), in place: Echo, in the picker, wrote nothing.
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('w1 w2 w3w1 w2 w3');
    await eventually(() => answers().count()).toBe(1);
    await visible(lastAnswer().getByText('Failing (chosen)'));
  });

  it('Continue after a reload (the picker back on Auto) goes on with the model that wrote the answer', async () => {
    await newChat();
    await ask('Count for me after a reload', 'Failing');
    await visible(lastAnswer().getByRole('alert'));
    await page.reload();
    await lastAnswer().getByRole('alert').getByRole('button', { name: 'Continue' }).click();
    await idle();
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('w1 w2 w3w1 w2 w3');
    await visible(lastAnswer().getByText('Failing (chosen)'));
  });

  it('a Continue that cannot reach the service keeps the partial answer on screen and says why', async () => {
    await newChat();
    await ask('Count for me offline', 'Failing');
    const problem = await visible(lastAnswer().getByRole('alert'));
    await page.context().setOffline(true);
    try {
      await problem.getByRole('button', { name: 'Continue' }).click();
      const notice = await visible(page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'The answer could not be continued' }));
      await eventually(() => notice.textContent()).toMatch(/Could not reach the Parley service/);
      await idle();
      await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('w1 w2 w3');
      await eventually(() => problem.locator('.answer-problem-text').textContent()).toBe('The model stopped answering before it was done. What it wrote so far is kept.');
      await notice.getByRole('button', { name: /^Dismiss/ }).click();
    } finally {
      await page.context().setOffline(false);
    }
    // The browser logs the request it refused offline: provoked here, so taken off the page's problems.
    const problems = pageProblems(page);
    for (let i = problems.length - 1; i >= 0; i--) if (problems[i]?.includes('net::ERR_INTERNET_DISCONNECTED')) problems.splice(i, 1);
  });

  it('Retry answers again after an error', async () => {
    await newChat();
    await ask('Count again', 'Failing');
    const problem = await visible(lastAnswer().getByRole('alert'));
    await page.getByLabel('Model').selectOption(models.Echo ?? '');
    await problem.getByRole('button', { name: 'Retry' }).click();
    await idle();
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toBe('You said: Count again');
  });
});

describe('sources, composer, popovers and threads', () => {
  it('lists only the cited source; the inline [1] opens it at the passage with a human location', async () => {
    await newChat();
    await page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }).click();
    await ask('When does the lighthouse keeper light the lamp?', 'Citing');
    await idle();
    const sources = lastAnswer().locator('.citation');
    await eventually(() => sources.count()).toBe(1);
    await lastAnswer().getByRole('button', { name: /^Source 1: / }).click();
    const open = lastAnswer().locator('.citation[open]');
    await visible(open.locator('mark'));
    const summary = (await open.locator('summary').textContent()) ?? '';
    expect(summary).not.toMatch(/start|end \d/);
    expect(await inspectAtWidthsThenResize(page, 'chat-sources', { width: 1280, height: 800 })).toEqual([]);
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
    await eventually(() => isOpen()).toBe(true);
    await page.keyboard.press('Escape');
    await eventually(() => isOpen()).toBe(false);
    await picker.locator('summary').click();
    await page.getByRole('heading', { name: 'What would you like to know?' }).click();
    await eventually(() => isOpen()).toBe(false);
    await picker.locator('summary').click();
    await picker.getByLabel('Village').check();
    await ask('popover closes', 'Echo');
    await eventually(isOpen).toBe(false);
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
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toMatch(/^2 messages: system: Talk like a pirate\./);
    expect(pageProblems(page)).toEqual([]);
  });

  it('a new chat\'s settings (instructions, temperature, max length) reach the model and are still there after a reload', async () => {
    await newChat();
    const settings = () => page.getByRole('dialog', { name: 'Chat settings' });
    await page.getByRole('button', { name: 'Chat settings', exact: true }).click();
    await visible(settings());
    await eventually(() => settings().getByLabel('Instructions').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await eventually(() => settings().count()).toBe(0);
    await page.getByRole('button', { name: 'Chat settings', exact: true }).click();
    await settings().getByLabel('Instructions').fill('Answer like a poet.');
    await settings().getByLabel('Model default').uncheck();
    await settings().getByLabel('Temperature value').fill('0.4');
    await settings().getByLabel('Max length (tokens)').fill('123');
    expect(await inspectAtWidthsThenResize(page, 'chat-settings', { width: 1280, height: 800 })).toEqual([]);
    await settings().getByRole('button', { name: 'Save' }).click();
    await eventually(() => settings().count()).toBe(0);
    const customized = page.getByRole('button', { name: 'Chat settings (customized for this chat)' });
    await visible(customized);

    const seen = upstream.requests.length;
    await ask('Hello poet', 'Context');
    await idle();
    await eventually(() => lastAnswer().locator('.markdown').textContent()).toMatch(/^2 messages: system: Answer like a poet\., user: Hello poet/);
    const asked = upstream.requests.slice(seen).find((r) => JSON.stringify(r.body).includes('Hello poet'));
    expect(asked?.body).toMatchObject({ temperature: 0.4, max_tokens: 123 });

    await page.reload();
    // The dot that says the chat has settings of its own, among the composer's tools.
    await page.locator('.composer-tools').screenshot({ path: `${SCREENSHOT_DIR}/chat-settings-custom.png` });
    await (await visible(customized)).click();
    await eventually(() => settings().getByLabel('Instructions').inputValue()).toBe('Answer like a poet.');
    expect(await settings().getByLabel('Temperature value').inputValue()).toBe('0.4');
    expect(await settings().getByLabel('Max length (tokens)').inputValue()).toBe('123');
    await settings().getByRole('button', { name: 'Cancel' }).click();
    await eventually(() => customized.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });
});
