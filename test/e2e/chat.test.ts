import { readFile } from 'node:fs/promises';
import { crc32, deflateSync } from 'node:zlib';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpstream, type Upstream } from '../fixtures/upstream.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { chatPage } from './support/chat-page.js';
import { eventually } from './support/eventually.js';
import { overlap } from './support/layout.js';
import { addDataset, addModel } from './support/served-data.js';
import { inspectAtWidths, inspectAtWidthsThenResize } from './support/widths.js';

const suite = e2eSuite();
let page: Page;
let upstream: Upstream;
const models: Record<string, string> = {};

/** The ten words `slow:<ms>` streams, one per chunk. */
const ALL_WORDS = 'one two three four five six seven eight nine ten';
/** The title a `slow:` model gives its thread after the first answer: its ten words, as a title. */
const COUNTED = 'One two three four five six seven eight nine ten';
const MARKDOWN_ANSWER = 'Use **const**:\n\n```ts\nconst total = items.length;\n```\n\n<img src=x onerror="document.title=1">';

const { composer, lastAnswer, newChat, ask } = chatPage(() => page, suite, models);

/** A PNG of `width`×`height` in diagonal stripes: a picture whose thumbnail and full size can be told apart by eye. */
function stripesPng(width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      const band = Math.floor((x + y) / 12) % 2;
      rows.set(band ? [79, 70, 229] : [250, 204, 21], at);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

async function answerText(): Promise<string> {
  return ((await lastAnswer().locator('.markdown').textContent()) ?? '').trim();
}

beforeAll(async () => {
  upstream = await startUpstream();
  models['Slow'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Slow', 'slow:150');
  models['Slower'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Slower', 'slow:400');
  models['Failing'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Failing', 'fail-mid:3');
  models['Markdown'] = await addModel(suite.served, upstream.openaiBaseUrl, 'Markdown', `fixed:${MARKDOWN_ANSWER}`);
  // One Markdown file, so that answers over it have citations.
  await addDataset(suite.served, { name: 'Village', description: 'Notes about the lighthouse.' }, {
    'lighthouse.md': '# Lighthouse\n\nThe lighthouse lamp is lit at dusk by the keeper, who trims the wick and winds the clockwork that turns the lens.\n',
  });
  page = await suite.open();
  await signIn(page, suite.served.apiKey);
});
afterAll(async () => {
  await upstream.close();
});

describe('chat in the browser', () => {
  it('the home screen offers prompts and datasets, in the configured orientation', async () => {
    await newChat();
    const prompts = page.getByRole('region', { name: 'Suggested prompts' });
    await visible(prompts.getByRole('button', { name: /Explain a concept/ }));
    await eventually(() => prompts.getByRole('toolbar', { name: 'Suggested prompts' }).getAttribute('aria-orientation')).toBe('horizontal');
    await visible(page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }));
    await eventually(() => page.getByLabel('Model').locator('option:checked').textContent()).toBe('Auto (dynamic routing)');
    expect(await inspectPage(page, 'chat-home')).toEqual([]);
  });

  it('the home screen shows its suggestions together, once all of them are in, so nothing moves under a click', async () => {
    const prompts = /\/api\/suggestions\/prompts(\?.*)?$/;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(prompts, async (route) => {
      await held;
      await route.continue();
    });
    try {
      const datasetsIn = page.waitForResponse(/\/api\/suggestions\/datasets/);
      await page.reload();
      await datasetsIn;
      // Two frames after the datasets' answer: rendered, had it been shown on its own.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const placeholder = page.getByRole('status').filter({ hasText: 'Loading suggestions…' });
      expect(await placeholder.count()).toBe(1);
      expect(await page.getByRole('region', { name: 'Suggested datasets' }).count()).toBe(0);
      release();
      await visible(page.getByRole('region', { name: 'Suggested prompts' }).getByRole('button', { name: /Explain a concept/ }));
      await visible(page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }));
      expect(await placeholder.count()).toBe(0);
    } finally {
      release();
      await page.unroute(prompts);
    }
  });

  it('an answer streams in; the input is disabled while it is written and enabled after', async () => {
    await newChat();
    await ask('Count to ten', 'Slow');
    await visible(page.getByRole('article', { name: 'You said' }).getByText('Count to ten'));
    await eventually(() => composer().isDisabled()).toBe(true);
    // Part of the answer shows before the whole of it exists.
    await eventually(answerText, { timeout: 10_000 }).toMatch(/^one two/);
    // One read, on purpose: the state at the moment the part-way text showed (a retried negative check proves no more).
    expect(await answerText()).not.toContain('ten');
    // The thread's own actions wait too (its rename and delete); navigation does not (see the test of leaving an answer).
    const threadsNav = page.getByRole('navigation', { name: 'Threads' });
    await eventually(() => threadsNav.getByRole('button', { name: 'Actions for Count to ten', includeHidden: true }).isDisabled({ timeout: 5_000 })).toBe(true);
    await eventually(answerText, { timeout: 10_000 }).toBe(ALL_WORDS);
    await eventually(() => composer().isDisabled()).toBe(false);
    await visible(lastAnswer().getByText('Slow (chosen)'));
    expect(new URL(page.url()).hash).toMatch(/^#\/chat\/thr_/);
    // Once the answer is done, the model that wrote it names the thread (this fixture model says its ten words
    // again), and the list and the page show the name without a reload.
    await visible(threadsNav.getByRole('link', { name: COUNTED }));
    expect(await threadsNav.getByRole('link', { name: 'Count to ten' }).count()).toBe(0);
    expect(await inspectAtWidthsThenResize(page, 'chat-generated-title', { width: 1280, height: 800 })).toEqual([]);
  });

  it('Stop ends the answer and keeps the partial text', async () => {
    await newChat();
    await ask('Count slowly', 'Slower');
    await eventually(answerText, { timeout: 10_000 }).toMatch(/^one two/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await visible(lastAnswer().getByText('You stopped this answer.'));
    const partial = await answerText();
    expect(partial).toMatch(/^one two/);
    expect(partial).not.toContain('ten');
    await eventually(() => composer().isDisabled()).toBe(false);
    // Nothing more comes: the upstream answer is stopped too (no request of it is left open), and
    // the text shown is still the part-way text.
    await eventually(() => upstream.active()).toBe(0);
    expect(await answerText()).toBe(partial);
  });

  it('Esc stops the answer too', async () => {
    await newChat();
    await ask('Count again', 'Slower');
    await eventually(answerText, { timeout: 10_000 }).toMatch(/^one/);
    await page.keyboard.press('Escape');
    await visible(lastAnswer().getByText('You stopped this answer.'));
    // One read, on purpose: the state at the moment the part-way text showed (a retried negative check proves no more).
    expect(await answerText()).not.toContain('ten');
  });

  it('an upstream failure mid-answer is shown inline, the partial text kept', async () => {
    await newChat();
    await ask('Fail please', 'Failing');
    const error = await visible(lastAnswer().getByRole('alert'));
    // A plain sentence and what to do, not the transport's words; the detail is one click away.
    await eventually(() => error.locator('.answer-problem-text').textContent()).toBe('The model stopped answering before it was done. What it wrote so far is kept.');
    await visible(error.getByRole('button', { name: 'Retry' }));
    await visible(error.getByRole('button', { name: 'Continue' }));
    await eventually(() => answerText()).toBe('w1 w2 w3');
    await eventually(() => composer().isDisabled()).toBe(false);
    expect(await inspectPage(page, 'chat-error')).toEqual([]);
  });

  it('a reload mid-answer re-attaches to the stream and the answer completes', async () => {
    await newChat();
    await ask('Count across a reload', 'Slower');
    await eventually(answerText, { timeout: 10_000 }).toMatch(/^one two/);
    expect(new URL(page.url()).hash).toMatch(/^#\/chat\/thr_/);
    await page.reload();
    await eventually(() => composer().isDisabled(), { timeout: 10_000 }).toBe(true);
    await eventually(answerText, { timeout: 15_000 }).toBe(ALL_WORDS);
    await eventually(() => composer().isDisabled()).toBe(false);
    await visible(lastAnswer().getByText('Slower (chosen)'));
  });

  it('while an answer is written, other threads open and New chat works; the answer goes on and is whole on coming back', async () => {
    const threadsNav = page.getByRole('navigation', { name: 'Threads' });
    await newChat();
    await ask('An earlier chat to read', 'Markdown');
    await eventually(() => composer().isDisabled()).toBe(false);
    const earlier = new URL(page.url()).hash;
    await newChat();
    // The model is held before its first word: the answer is under way for as long as the test needs.
    const held = upstream.hold('/v1/chat/completions');
    try {
      await ask('Count while I look elsewhere', 'Slow');
      await eventually(() => new URL(page.url()).hash).toMatch(/^#\/chat\/thr_/);
      const writing = new URL(page.url()).hash;
      // (The earlier chat's title may be asked for and held too.)
      await eventually(() => held.held()).toBeGreaterThan(0);
      const writingRow = threadsNav.locator('.thread-item', { has: page.locator(`a[href="${writing}"]`) });
      await visible(writingRow.getByText('answering…'));
      // Another thread opens at once, ready for a message of its own.
      await threadsNav.locator(`a[href="${earlier}"]`).click();
      await visible(lastAnswer().locator('pre code'));
      await eventually(() => composer().isDisabled()).toBe(false);
      await visible(writingRow.getByText('answering…'));
      // At 420 px the list is in the drawer.
      expect(await inspectAtWidths(page, 'chat-answering-elsewhere', async (width) => (width < 600 ? page.getByRole('button', { name: 'Threads' }).click() : undefined))).toEqual([]);
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });
      // And so does a new chat.
      await threadsNav.getByRole('button', { name: 'New chat' }).click();
      await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
      await eventually(() => composer().isDisabled()).toBe(false);
      // Back in the answering thread: it is still being written, and ends whole once the model goes on.
      await threadsNav.locator(`a[href="${writing}"]`).click();
      await eventually(() => composer().isDisabled()).toBe(true);
      held.release();
      await eventually(answerText, { timeout: 15_000 }).toBe(ALL_WORDS);
      await eventually(() => composer().isDisabled()).toBe(false);
      await eventually(() => writingRow.getByText('answering…').count()).toBe(0);
      // One question and one answer: nothing lost, nothing twice, and no toast from the stream left behind.
      expect(await page.getByRole('article', { name: 'You said' }).count()).toBe(1);
      expect(await page.getByRole('article', { name: 'Answer' }).count()).toBe(1);
      expect(await page.locator('.toast').count()).toBe(0);
    } finally {
      held.release();
    }
  });

  it('a suggested prompt starts a chat', async () => {
    await newChat();
    await page.getByRole('region', { name: 'Suggested prompts' }).getByRole('button', { name: /Explain a concept/ }).click();
    await visible(page.getByRole('article', { name: 'You said' }).getByText(/public-key cryptography/));
    await eventually(() => new URL(page.url()).hash).toMatch(/^#\/chat\/thr_/);
    await eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);
    await visible(lastAnswer().locator('.routing-note'));
  });

  it('an answer over a dataset lists its citations, each openable to its passage', async () => {
    await newChat();
    await page.getByRole('region', { name: 'Suggested datasets' }).getByRole('button', { name: /Village/ }).click();
    await ask('When is the lighthouse lamp lit, and by whom?', 'mdl_extractive');
    await eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);
    const citation = lastAnswer().locator('.citation').first();
    await visible(citation.getByText('lighthouse.md'));
    await citation.locator('summary').click();
    await visible(citation.getByText(/lit at dusk/));
    // The dataset picked on the home screen became the thread's.
    await eventually(() => page.getByText('Datasets Village').count()).toBe(1);
    await eventually(() => answerText()).toMatch(/dusk/);
    expect(await inspectPage(page, 'chat-thread')).toEqual([]);
    await page.setViewportSize({ width: 420, height: 800 });
    expect(await inspectPage(page, 'chat-thread-narrow')).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageProblems(page)).toEqual([]);
  });

  it("a thread's menu exports it as Markdown, its sources numbered, or as JSON as the API returns it", async () => {
    // The thread of the previous test: an answer over the Village dataset, with its citations.
    const threads = page.getByRole('navigation', { name: 'Threads' });
    const row = threads.locator('.thread-item.is-selected');
    const exported = async (item: string): Promise<{ download: Download; text: string }> => {
      await row.hover();
      await row.getByRole('button', { name: /^Actions for/ }).click();
      const [download] = await Promise.all([page.waitForEvent('download'), threads.getByRole('menuitem', { name: item }).click()]);
      return { download, text: await readFile(await download.path(), 'utf8') };
    };
    const title = ((await row.getByRole('link').textContent()) ?? '').trim();
    const markdown = await exported('Export as Markdown');
    expect(markdown.download.suggestedFilename()).toMatch(/\.md$/);
    expect(markdown.text.startsWith(`# ${title}\n\n## You\n\nWhen is the lighthouse lamp lit, and by whom?\n\n## Assistant (`)).toBe(true);
    expect(markdown.text).toMatch(/### Sources\n\n\d+\. \*\*lighthouse\.md\*\*.*lit at dusk/);
    const json = await exported('Export as JSON');
    expect(json.download.suggestedFilename()).toMatch(/\.json$/);
    const body = JSON.parse(json.text) as { thread: { title: string }; messages: { role: string; citations: { artifact_key: string }[] }[] };
    expect(body.thread.title).toBe(title);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(body.messages[1]?.citations.some((c) => c.artifact_key === 'lighthouse.md')).toBe(true);
  });

  it('Markdown renders with highlighted code, and HTML in an answer stays inert', async () => {
    await newChat();
    await ask('Show me code', 'Markdown');
    await eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);
    await visible(lastAnswer().locator('strong', { hasText: 'const' }));
    await visible(lastAnswer().locator('pre code.language-ts .hljs-keyword').first());
    await eventually(() => lastAnswer().locator('img').count()).toBe(0);
    await eventually(() => page.title()).toBe('Chat · Parley');
  });

  it('a finished answer shows its speed, time to first token and tokens in a small line under it', async () => {
    await newChat();
    await ask('How fast?', 'Slow');
    const stats = lastAnswer().locator('.answer-stats span');
    // Ten words, one per chunk 150 ms apart: the writing takes time, so a speed is shown; then the wait and the tokens.
    await eventually(() => stats.allTextContents(), { timeout: 15_000 }).toEqual([
      expect.stringMatching(/^[\d.,]+ tokens\/s$/),
      expect.stringMatching(/^[\d.,]+ s to first token$/),
      expect.stringMatching(/^[\d,]+ in \/ 10 out$/),
    ]);
  });

  it('a thread of 10,000 messages loads page by page and keeps only those in view in the page', async () => {
    const total = 10_000;
    const now = new Date().toISOString();
    const message = (i: number) => ({
      id: `msg_big${i}`,
      thread_id: 'thr_big',
      parent_id: i === 0 ? null : `msg_big${i - 1}`,
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: i % 2 === 0 ? `Question ${i}` : `Answer ${i}`,
      status: 'complete',
      model_id: null,
      routing: null,
      citations: [],
      thoughts: [],
      usage: null,
      first_token_ms: null,
      latency_ms: null,
      error: null,
      created_at: now,
      updated_at: now,
    });
    let pagesServed = 0;
    // The service is not asked to store 10,000 messages: the browser is answered here, as the API would.
    await page.route(/\/api\/threads\/thr_big(\/messages)?(\?.*)?$/, async (route) => {
      const url = new URL(route.request().url());
      if (!url.pathname.endsWith('/messages')) {
        return route.fulfill({ json: { id: 'thr_big', title: 'Big thread', dataset_ids: [], suggestions_enabled: false, system_prompt: null, workflow_id: null, created_at: now, updated_at: now } });
      }
      pagesServed++;
      const start = Number(url.searchParams.get('cursor') ?? '0');
      const limit = Number(url.searchParams.get('limit') ?? '50');
      const end = Math.min(total, start + limit);
      const data = Array.from({ length: end - start }, (_, k) => message(start + k));
      return route.fulfill({ json: { data, next_cursor: end < total ? String(end) : null } });
    });
    await page.goto(`${suite.served.url}/#/chat/thr_big`);
    await visible(page.getByText(`Answer ${total - 1}`), 20_000);
    expect(pagesServed).toBe(50);
    await eventually(() => page.locator('.message').count()).toBeLessThan(60);
    // Scrolled to the top, the first messages are rendered in place of the last.
    await page.getByRole('log', { name: 'Messages' }).evaluate((el) => el.scrollTo(0, 0));
    await visible(page.getByText('Question 0', { exact: true }));
    await eventually(() => page.locator('.message').count()).toBeLessThan(60);
    await page.unroute(/\/api\/threads\/thr_big/);
  });

  it('the thread list is one Tab stop: arrows move, Enter opens, its menu renames', async () => {
    for (const title of ['Keys alpha', 'Keys beta', 'Keys gamma']) expect((await suite.served.api('/threads', { body: { title } })).status).toBe(201);
    await newChat();
    const threads = page.getByRole('navigation', { name: 'Threads' });
    const search = threads.getByRole('searchbox', { name: 'Search threads' });
    await search.fill('Keys');
    await eventually(() => threads.getByRole('link').allTextContents()).toEqual(['Keys gamma', 'Keys beta', 'Keys alpha']);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
    const inList = () => threads.locator('.thread-groups').evaluate((list) => list.contains(document.activeElement));
    // One Tab stop: Tab enters the list on a thread, the next Tab leaves it.
    await search.press('Tab');
    await eventually(focused).toBe('Keys gamma');
    await page.keyboard.press('Tab');
    await eventually(inList).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await eventually(focused).toBe('Keys gamma');
    await page.keyboard.press('ArrowDown');
    await eventually(focused).toBe('Keys beta');
    await page.keyboard.press('End');
    await eventually(focused).toBe('Keys alpha');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    await eventually(focused).toBe('Keys beta');
    // The list remembers where it was: back into it lands on the same thread.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await eventually(focused).toBe('Keys beta');
    await page.keyboard.press('Enter');
    await eventually(() => threads.getByRole('link', { name: 'Keys beta' }).getAttribute('aria-current')).toBe('page');
    // → reaches the thread's menu; Esc closes it with focus back on its button; the menu renames.
    await threads.getByRole('link', { name: 'Keys beta' }).focus();
    await page.keyboard.press('ArrowRight');
    await eventually(focused).toBe('Actions for Keys beta');
    await page.keyboard.press('Enter');
    const menu = await visible(page.getByRole('menu', { name: 'Actions for Keys beta' }));
    await eventually(focused).toBe('Rename');
    expect(await inspectPage(page, 'chat-thread-menu')).toEqual([]);
    await page.keyboard.press('Escape');
    await eventually(() => menu.count()).toBe(0);
    await eventually(focused).toBe('Actions for Keys beta');
    await page.keyboard.press('Enter');
    // The arrows wrap round: up from the first item to the last, down from the last to the first.
    await page.keyboard.press('ArrowUp');
    await eventually(focused).toBe('Delete');
    await page.keyboard.press('ArrowDown');
    await eventually(focused).toBe('Rename');
    await page.keyboard.press('Enter');
    const field = threads.getByRole('textbox', { name: 'Thread title' });
    await eventually(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill('Keys beta, edited');
    await field.press('Enter');
    await eventually(focused).toBe('Keys beta, edited');
    await visible(threads.getByRole('link', { name: 'Keys beta, edited' }));
    await search.fill('');
  });

  it('threads are searched, renamed and deleted behind a confirmation', async () => {
    await newChat();
    const threads = page.getByRole('navigation', { name: 'Threads' });
    await threads.getByRole('searchbox', { name: 'Search threads' }).fill('slowly');
    await eventually(() => threads.getByRole('link').allTextContents()).toEqual(['Count slowly']);
    await threads.getByRole('link', { name: 'Count slowly' }).hover();
    await threads.getByRole('button', { name: 'Actions for Count slowly' }).click();
    await threads.getByRole('menuitem', { name: 'Rename' }).click();
    await threads.getByRole('textbox', { name: 'Thread title' }).fill('Counting, renamed');
    await threads.getByRole('textbox', { name: 'Thread title' }).press('Enter');
    await threads.getByRole('searchbox', { name: 'Search threads' }).fill('renamed');
    await visible(threads.getByRole('link', { name: 'Counting, renamed' }));
    await threads.getByRole('link', { name: 'Counting, renamed' }).hover();
    await threads.getByRole('button', { name: 'Actions for Counting, renamed' }).click();
    await threads.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = await visible(page.getByRole('dialog', { name: 'Delete this thread?' }));
    await eventually(() => dialog.textContent()).toMatch(/Counting, renamed.*all its messages/);
    await dialog.getByRole('button', { name: 'Delete thread' }).click();
    await visible(threads.getByText('No thread has this in its title or messages.'));
    await threads.getByRole('searchbox', { name: 'Search threads' }).fill('');
    // Other threads of this file were answered by the same fixture model, so named alike.
    await visible(threads.getByRole('link', { name: COUNTED }).first());
  });

  it('a word only an answer holds finds its thread: the snippet shows it marked, and opening the thread goes to that answer, highlighted', async () => {
    await newChat();
    await ask('Show me code', 'Markdown');
    await eventually(answerText).toContain('items.length');
    await newChat();
    const threads = page.getByRole('navigation', { name: 'Threads' });
    const search = threads.getByRole('searchbox', { name: 'Search threads' });
    await search.fill('items');
    // Newest first: this test's thread (other tests of this file may have asked the same).
    const found = threads.locator('.thread-item').first().getByRole('link');
    await eventually(() => found.locator('.thread-snippet mark').allTextContents()).toEqual(['items']);
    expect(await found.textContent()).toContain('const total = items.length');
    // At 420 px the list is in the drawer.
    const drawer = page.getByRole('button', { name: 'Threads' });
    expect(await inspectAtWidths(page, 'chat-search-snippet', async (width) => (width < 600 ? drawer.click() : undefined))).toEqual([]);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 800 });
    await found.click();

    const hit = page.getByRole('group', { name: 'Found by your search' });
    await visible(hit.getByRole('article', { name: 'Answer' }));
    expect(new URL(page.url()).hash).toMatch(/^#\/chat\/thr_\w+\?m=msg_\w+$/);
    await eventually(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Found by your search');
    // The searched word is painted inside the answer's rendered Markdown (a CSS highlight: React's DOM is left alone).
    await eventually(() => page.evaluate(() => [...(CSS.highlights.get('parley-search-hit') ?? [])].map((range) => range.toString()))).toEqual(['items']);
    expect(await inspectAtWidthsThenResize(page, 'chat-search-hit', { width: 1280, height: 800 })).toEqual([]);
    await search.fill('');
  });

  it('an answer renderer that cannot be fetched, or a message sent while the service is down, leaves the page and the text', async () => {
    // A fresh window that cannot fetch the answer renderer: nothing of it is loaded yet.
    const renderer = /\/assets\/MarkdownRenderer-[^/]+\.js$/;
    const api = /\/api\//;
    const offline = await suite.open('#/chat', {
      prepare: async (p) => {
        await p.route(renderer, (route) => route.abort('connectionrefused'));
      },
    });
    try {
      await signIn(offline, suite.served.apiKey);
      const box = offline.getByLabel('Message', { exact: true });
      const answers = offline.getByRole('article', { name: 'Answer' });
      await offline.getByLabel('Model').selectOption(models.Markdown ?? 'Markdown');
      await box.fill('Show me code');
      await box.press('Enter');
      // The answer reads as plain text while the renderer cannot be fetched (the page stays: below).
      await eventually(() => answers.last().textContent(), { timeout: 15_000 }).toContain('const total = items.length;');
      await eventually(() => box.isDisabled()).toBe(false);

      // The service is gone: the message is not sent, the page says why and the text stays in the box.
      await offline.route(api, (route) => route.abort('connectionrefused'));
      await box.fill('And in Python?');
      await box.press('Enter');
      const notice = await visible(offline.getByRole('alert').filter({ hasText: 'Your message was not sent' }));
      await eventually(() => notice.textContent()).toContain('Parley cannot reach its service');
      await eventually(() => box.inputValue()).toBe('And in Python?');
      expect(await answers.count()).toBe(1);
      expect(await offline.getByText(/restarted or updated/).count()).toBe(0);
      // The lost connection's toast stays clear of the notice and of the box, wide and narrow (issue 31).
      const lost = await visible(offline.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Lost the connection' }));
      const composer = offline.locator('form.composer');
      await eventually(async () => (await overlap(lost, notice)) || (await overlap(lost, composer))).toBe(false);
      expect(await inspectPage(offline, 'chat-not-sent')).toEqual([]);
      await offline.setViewportSize({ width: 420, height: 800 });
      await eventually(async () => (await overlap(lost, notice)) || (await overlap(lost, composer))).toBe(false);
      expect(await inspectPage(offline, 'chat-not-sent-narrow')).toEqual([]);
      await offline.setViewportSize({ width: 1280, height: 800 });

      // Back: the same text is sent, and its answer is rendered (the renderer is fetched now).
      await offline.unroute(api);
      await offline.unroute(renderer);
      await box.press('Enter');
      await visible(answers.nth(1).locator('strong', { hasText: 'const' }));
      await eventually(() => notice.count()).toBe(0);
    } finally {
      await offline.close();
    }
  });

  it('New chat starts on Auto, and a workflow picked after a model hands the answer to the workflow', async () => {
    const created = (await (await suite.served.api('/workflows', { body: { name: 'Counting', system_prompt: 'Count.', model_endpoint_override: models.Slow } })).json()) as { id: string };
    try {
      await newChat();
      await page.reload();
      await ask('Show me code once more', 'Markdown');
      await eventually(() => composer().isDisabled(), { timeout: 15_000 }).toBe(false);
      await visible(lastAnswer().getByText('Markdown (chosen)'));

      // New chat in the app, not a reload: the model of the last chat is not kept.
      await page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: 'New chat' }).click();
      await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
      await eventually(() => page.getByLabel('Model').locator('option:checked').textContent()).toBe('Auto (dynamic routing)');

      // A model, then a workflow: the workflow's model answers, and the model picker says so.
      await page.getByLabel('Model').selectOption(models.Markdown ?? 'Markdown');
      await page.getByLabel('Workflow').selectOption(created.id);
      await eventually(() => page.getByLabel('Model').locator('option:checked').textContent()).toBe('From Counting: Slow');
      await composer().fill('Count for me');
      await composer().press('Enter');
      await eventually(answerText, { timeout: 15_000 }).toBe(ALL_WORDS);
      await visible(lastAnswer().getByText('Slow (chosen)'));
    } finally {
      await suite.served.api(`/workflows/${created.id}`, { method: 'DELETE' });
    }
  });

  it('an image sent to a model that reads images shows as a thumbnail that opens full size, after a reload too', async () => {
    const seer = await addModel(suite.served, upstream.openaiBaseUrl, 'Seer', 'fixed:A striped square.');
    expect((await suite.served.api(`/models/${seer}`, { method: 'PATCH', body: { capabilities: { vision: true } } })).status).toBe(200);
    try {
      await page.reload();
      await newChat();
      await page.getByLabel('Files to attach').setInputFiles({ name: 'stripes.png', mimeType: 'image/png', buffer: stripesPng(160, 120) });
      await visible(page.getByRole('list', { name: 'Attached files' }).locator('li[data-state="ready"]'));
      await ask('What is in this picture?', seer);
      await eventually(answerText, { timeout: 10_000 }).toBe('A striped square.');
      // Read again from the service, not from what the composer had read.
      await page.reload();
      const open = page.getByRole('article', { name: 'You said' }).last().getByRole('button', { name: 'Open image stripes.png full size' });
      await eventually(() => open.isEnabled({ timeout: 10_000 })).toBe(true);
      await visible(open.getByRole('img', { name: 'stripes.png' }));
      expect(await inspectAtWidthsThenResize(page, 'chat-image', page.viewportSize() ?? { width: 1280, height: 800 })).toEqual([]);
      await open.click();
      const viewer = page.getByRole('dialog', { name: 'stripes.png' });
      await visible(viewer.getByRole('img', { name: 'stripes.png' }));
      expect(await inspectAtWidthsThenResize(page, 'chat-image-open', page.viewportSize() ?? { width: 1280, height: 800 })).toEqual([]);
      await page.keyboard.press('Escape');
      await eventually(() => viewer.isVisible()).toBe(false);
    } finally {
      await suite.served.api(`/models/${seer}`, { method: 'DELETE' });
    }
  });

  it('Shift+Enter starts a new line; Enter sends the whole message', async () => {
    await newChat();
    await page.getByLabel('Model').selectOption(models.Markdown ?? 'Markdown');
    await composer().fill('First line');
    await composer().press('Shift+Enter');
    await composer().pressSequentially('second line');
    await eventually(() => composer().inputValue()).toBe('First line\nsecond line');
    await composer().press('Enter');
    const sent = await visible(page.getByRole('article', { name: 'You said' }).last());
    await eventually(() => sent.textContent()).toMatch(/First line\s*second line/);
    await eventually(() => composer().inputValue()).toBe('');
  });
});
