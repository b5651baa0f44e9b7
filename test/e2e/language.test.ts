import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eSuite, pageProblems, visible } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { inspectAtWidths } from './support/widths.js';

const suite = e2eSuite();

const htmlLang = (page: Page) => page.evaluate(() => document.documentElement.lang);
/** The main navigation, by its name in the language shown. */
const NAV = { ja: 'メイン', de: 'Hauptnavigation', 'zh-Hans': '主导航' } as const;
const nav = (page: Page, locale: keyof typeof NAV) => page.getByRole('navigation', { name: NAV[locale] });

/**
 * A fresh profile whose browser speaks `locale` (navigator.languages, as the OS gives Electron's);
 * `signedIn`: with the owner's key already kept in it, as the sign-in page leaves it, before the app loads.
 */
async function openIn(locale: string, options: { signedIn?: boolean } = {}): Promise<Page> {
  const key = suite.served.apiKey;
  const prepare = async (page: Page) => {
    if (options.signedIn) await page.addInitScript((k) => localStorage.setItem('parley.apiKey', k), key);
  };
  return suite.open('', { context: await suite.newContext({ locale }), prepare });
}

describe('the interface in the user’s language', () => {
  it('opens in the browser’s language; Settings → Language switches at once, survives a reload, and <html lang> follows', async () => {
    const page = await openIn('ja-JP');
    await visible(page.getByRole('heading', { name: 'Parley にサインイン' }));
    expect(await htmlLang(page)).toBe('ja');
    await page.getByLabel('API キー').fill(suite.served.apiKey);
    await page.getByRole('button', { name: 'サインイン' }).click();

    const jaNav = nav(page, 'ja');
    await visible(jaNav.getByRole('link', { name: 'チャット', exact: true }));
    await jaNav.getByRole('link', { name: '設定', exact: true }).click();
    await visible(page.getByRole('heading', { level: 1, name: '設定' }));
    const language = page.getByRole('combobox', { name: '言語' });
    await eventually(() => language.inputValue()).toBe('system');
    expect(await language.locator('option[value="system"]').textContent()).toBe('システム（日本語）');

    await language.selectOption('de');
    // At once, without a reload: navigation, headings and the control itself.
    await visible(nav(page, 'de').getByRole('link', { name: 'Einstellungen', exact: true }));
    await visible(page.getByRole('heading', { level: 1, name: 'Einstellungen' }));
    await visible(page.getByRole('heading', { level: 2, name: 'Sprache' }));
    expect(await htmlLang(page)).toBe('de');
    await eventually(() => page.title()).toBe('Einstellungen · Parley');

    await page.reload();
    await visible(page.getByRole('heading', { level: 1, name: 'Einstellungen' }));
    expect(await htmlLang(page)).toBe('de');
    await eventually(() => page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('de');

    await page.getByRole('heading', { level: 2, name: 'Sprache' }).scrollIntoViewIfNeeded();
    expect(await inspectAtWidths(page, 'language-settings-de')).toEqual([]);

    // Back to the system's language.
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('system');
    await visible(page.getByRole('heading', { level: 1, name: '設定' }));
    expect(await htmlLang(page)).toBe('ja');
    expect(await page.evaluate(() => localStorage.getItem('parley.locale'))).toBeNull();
    expect(pageProblems(page)).toEqual([]);
  });

  for (const [locale, name, chat, settings] of [
    ['zh-CN', 'zh-Hans', '聊天', '设置'],
    ['ja-JP', 'ja', 'チャット', '設定'],
  ] as const) {
    it(`the chat home and Settings in ${name} (a browser in ${locale}), at each width and in each theme`, async () => {
      // Signed in as the sign-in page would leave it: its key kept in this profile (set before the
      // app loads, rather than loading it twice: the sign-in page, then a reload).
      const page = await openIn(locale, { signedIn: true });
      const main = nav(page, name);
      await visible(main.getByRole('link', { name: chat, exact: true }));
      expect(await htmlLang(page)).toBe(name);
      // The chat page has loaded (it is fetched on demand), and its placeholders are gone.
      await visible(page.locator('#main h1'));
      await eventually(() => page.locator('[data-skeleton]').count()).toBe(0);
      expect(await inspectAtWidths(page, `language-${name}-chat`)).toEqual([]);

      await page.setViewportSize({ width: 1440, height: 900 });
      await main.getByRole('link', { name: settings, exact: true }).click();
      await visible(page.getByRole('heading', { level: 1, name: settings }));
      await eventually(() => page.locator('[data-skeleton]').count()).toBe(0);
      expect(await inspectAtWidths(page, `language-${name}-settings`)).toEqual([]);
      expect(pageProblems(page)).toEqual([]);
    });
  }
});
