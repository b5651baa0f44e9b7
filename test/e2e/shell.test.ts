import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { e2eSuite, inspectPage, pageProblems, settled, signIn, visible } from './support/browser.js';
import { inspectAtWidths } from './support/widths.js';
import { eventually } from './support/eventually.js';

const suite = e2eSuite();

async function signedIn(hash = ''): Promise<Page> {
  const page = await suite.open(hash);
  await signIn(page, suite.served.apiKey);
  return page;
}

const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const focused = (page: Page) => page.evaluate(() => ({ id: document.activeElement?.id ?? '', text: document.activeElement?.textContent?.trim() ?? '' }));

async function setConfiguredTheme(theme: 'system' | 'light' | 'dark'): Promise<void> {
  const { version } = (await (await suite.served.api('/admin/config')).json()) as { version: number };
  const res = await suite.served.api('/admin/config', { method: 'PATCH', body: { values: { 'ui.theme': theme }, base_version: version } });
  expect(res.status).toBe(200);
}

let threadIds: string[] = [];
beforeAll(async () => {
  threadIds = [];
  // Named threads: a generated title would otherwise replace the first message as the name the drawer shows.
  for (const message of ['What is a dataset?', 'How do citations work?']) {
    const created = await suite.served.api('/threads', { body: { title: message } });
    expect(created.status).toBe(201);
    const threadId = ((await created.json()) as { id: string }).id;
    const res = await suite.served.api('/chat', { body: { thread_id: threadId, message } });
    expect(res.status).toBeLessThan(300);
    threadIds.push(threadId);
  }
});

describe('theme', () => {
  it('each person picks light, dark or system in Settings; it applies at once and survives a reload', async () => {
    const page = await signedIn('#/settings');
    await visible(page.getByRole('heading', { level: 2, name: 'Appearance' }));
    await eventually(() => page.getByRole('radio', { name: /^System/ }).isChecked()).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await settled(page);
    await eventually(() => themeOf(page)).toBe('light');
    const light = await background(page);

    await page.getByRole('radio', { name: /^Dark/ }).check();
    await eventually(() => themeOf(page)).toBe('dark');
    await eventually(() => background(page)).not.toBe(light);
    await eventually(() => page.evaluate(() => localStorage.getItem('parley.theme'))).toBe('dark');
    await page.reload();
    await visible(page.getByRole('heading', { level: 2, name: 'Appearance' }));
    await eventually(() => themeOf(page)).toBe('dark');
    await eventually(() => page.getByRole('radio', { name: /^Dark/ }).isChecked()).toBe(true);

    // System follows the system, both ways, without a reload.
    await page.getByRole('radio', { name: /^System/ }).check();
    await page.emulateMedia({ colorScheme: 'dark' });
    await settled(page);
    await eventually(() => themeOf(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await settled(page);
    await eventually(() => themeOf(page)).toBe('light');

    await page.getByRole('heading', { level: 2, name: 'Appearance' }).scrollIntoViewIfNeeded();
    expect(await inspectAtWidths(page, 'settings-appearance')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('[ui] theme of the configuration is the default for whoever has not chosen, the sign-in page included', async () => {
    await setConfiguredTheme('dark');
    try {
      const page = await suite.open();
      await page.emulateMedia({ colorScheme: 'light' });
      await visible(page.getByRole('heading', { name: 'Sign in to Parley' }));
      await eventually(() => themeOf(page)).toBe('dark');
      await signIn(page, suite.served.apiKey);
      await page.goto(`${suite.served.url}/#/settings`);
      await visible(page.getByRole('heading', { level: 2, name: 'Appearance' }));
      await eventually(() => page.getByRole('radio', { name: /^Dark/ }).isChecked()).toBe(true);
      await eventually(() => page.getByText('· default').count()).toBe(1);
      await eventually(() => page.locator('[data-theme-option="dark"]').textContent()).toContain('default');
      await eventually(() => themeOf(page)).toBe('dark');
      // A choice of one's own wins over the default.
      await page.getByRole('radio', { name: /^Light/ }).check();
      await eventually(() => themeOf(page)).toBe('light');
      expect(pageProblems(page)).toEqual([]);
    } finally {
      await setConfiguredTheme('system');
    }
  });
});

describe('narrow windows (420 px)', () => {
  it('the chat fills the window, the messages scroll rather than the page, and threads are in a drawer', async () => {
    const page = await signedIn();
    await page.setViewportSize({ width: 420, height: 800 });
    await visible(page.locator('#composer-input'));
    const toggle = page.getByRole('button', { name: 'Threads', exact: true });
    await visible(toggle);
    await eventually(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await eventually(() => page.getByRole('link', { name: 'What is a dataset?' }).isVisible()).toBe(false);
    // The page itself does not scroll: the composer is in view at the bottom.
    await eventually(() => page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight + 1)).toBe(true);
    await eventually(async () => {
      const box = await page.locator('#composer-input').boundingBox();
      return box ? box.y + box.height : Infinity;
    }).toBeLessThanOrEqual(800);

    // Open: a modal drawer with focus inside.
    await toggle.click();
    const drawer = page.getByRole('dialog', { name: 'Threads' });
    await visible(drawer);
    await eventually(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await eventually(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    // Focus stays in the drawer both ways round.
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    await eventually(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await eventually(() => drawer.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await settled(page);
    }
    expect(await inspectPage(page, 'chat-drawer-open-420')).toEqual([]);

    // Esc closes it and gives focus back to the button.
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await eventually(() => toggle.getAttribute('aria-expanded')).toBe('false');
    // The drawer gives focus back in the frame after it hides (a clean-clone CI run read it before that frame).
    await eventually(async () => (await focused(page)).text).toBe('Threads');

    // A click beside it closes it too.
    await toggle.click();
    await visible(drawer);
    await page.mouse.click(410, 400);
    await drawer.waitFor({ state: 'hidden' });

    // Choosing a thread closes it and shows the thread.
    await toggle.click();
    await drawer.getByRole('link', { name: 'How do citations work?' }).click();
    await drawer.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).hash).toBe(`#/chat/${threadIds[1]}`);
    await visible(page.locator('.chat-main').getByText('How do citations work?').first());
    expect(await inspectAtWidths(page, 'chat-thread')).toEqual([]);
    // Wide again: no drawer, the list beside the chat.
    await page.setViewportSize({ width: 1440, height: 900 });
    await eventually(() => toggle.isVisible()).toBe(false);
    await visible(page.getByRole('navigation', { name: 'Threads' }));
    expect(pageProblems(page)).toEqual([]);
  });

  it('the dataset table keeps its status column in view', async () => {
    const dataset = (await (await suite.served.api('/datasets', { body: { name: 'Narrow handbook' } })).json()) as { id: string; kb_id: string };
    const form = new FormData();
    form.append('file', new Blob(['# Handbook\n\nThe office opens at nine.'], { type: 'text/markdown' }), 'a-rather-long-file-name-for-the-handbook.md');
    const upload = await fetch(`${suite.served.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${suite.served.apiKey}` }, body: form });
    expect(upload.status).toBeLessThan(300);
    const page = await signedIn(`#/datasets/${dataset.id}`);
    await page.setViewportSize({ width: 420, height: 900 });
    const status = page.getByRole('row', { name: /a-rather-long-file-name/ }).getByText('Ready');
    await visible(status, 20_000);
    // Within the 420 px window, left and right edge alike.
    await eventually(async () => {
      const box = await status.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 420;
    }).toBe(true);
    await eventually(() => page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await inspectAtWidths(page, 'dataset-table')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});

describe('keyboard', () => {
  it('after signing in, one Tab reaches "Skip to message box", which puts the cursor in it', async () => {
    const page = await signedIn();
    await visible(page.locator('#composer-input'));
    await page.keyboard.press('Tab');
    await eventually(() => focused(page)).toEqual({ id: '', text: 'Skip to message box' });
    expect(await inspectPage(page, 'skip-link')).toEqual([]);
    await page.keyboard.press('Enter');
    expect((await focused(page)).id).toBe('composer-input');
    expect(pageProblems(page)).toEqual([]);
  });

  it('Shift+Esc and / go to the message box from any page; Ctrl+Shift+O starts a new chat', async () => {
    const page = await signedIn('#/settings');
    await visible(page.getByRole('heading', { level: 1, name: 'Settings' }));
    await page.keyboard.press('Shift+Escape');
    await eventually(async () => (await focused(page)).id).toBe('composer-input');
    expect(new URL(page.url()).hash).toBe('#/chat');

    await page.goto(`${suite.served.url}/#/datasets`);
    await visible(page.getByRole('heading', { level: 1, name: 'Datasets' }));
    await page.keyboard.press('/');
    await eventually(async () => (await focused(page)).id).toBe('composer-input');
    // Typed into the box, "/" is just a character.
    await page.keyboard.type('a/b');
    await eventually(() => page.locator('#composer-input').inputValue()).toBe('a/b');

    await page.goto(`${suite.served.url}/#/chat/${threadIds[0]}`);
    await visible(page.locator('.chat-main').getByText('What is a dataset?').first());
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Control+Shift+O');
    await eventually(() => new URL(page.url()).hash).toBe('#/chat');
    await eventually(async () => (await focused(page)).id).toBe('composer-input');
    await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
    expect(pageProblems(page)).toEqual([]);
  });
});
