import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { startServed, type Served } from '../support/served.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';

/** A data directory whose parley.toml asks for vertical carousels (the rest of the config is defaults). */
const verticalDir = mkdtempSync(join(tmpdir(), 'parley-e2e-carousel-'));
writeFileSync(join(verticalDir, 'parley.toml'), '[ui]\ncarousel = "vertical"\n');
const suite = e2eSuite(() => ({ dataDir: verticalDir }));
let defaultServed: Served | undefined;

afterAll(async () => {
  await defaultServed?.stop();
  rmSync(verticalDir, { recursive: true, force: true });
});

/** The home screen of `served`, signed in as its owner, in a fresh profile. */
async function home(served: Served): Promise<Page> {
  const page = await (await suite.newContext()).newPage();
  await page.goto(`${served.url}/#/chat`);
  await signIn(page, served.apiKey);
  await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
  return page;
}

type Box = { x: number; y: number; width: number; height: number };

/** The suggested prompts' toolbar, and the boxes of its first three cards, as neighbouring pairs. */
async function prompts(page: Page) {
  const toolbar = page.getByRole('toolbar', { name: 'Suggested prompts' });
  const cards = toolbar.getByRole('button');
  await visible(cards.first());
  expect(await cards.count()).toBeGreaterThanOrEqual(3);
  const box = async (i: number): Promise<Box> => {
    const found = await cards.nth(i).boundingBox();
    if (!found) throw new Error(`card ${i} has no box`);
    return found;
  };
  const [first, second, third] = [await box(0), await box(1), await box(2)];
  const neighbours: [Box, Box][] = [
    [first, second],
    [second, third],
  ];
  return { toolbar, cards, neighbours };
}

describe('the home carousels follow [ui] carousel', () => {
  it('vertical: the cards stack down the page, and the arrows up and down move between them', async () => {
    const page = await home(suite.served);
    const { toolbar, cards, neighbours } = await prompts(page);
    expect(await toolbar.getAttribute('aria-orientation')).toBe('vertical');
    for (const [above, below] of neighbours) {
      expect(below.x).toBe(above.x);
      expect(below.y).toBeGreaterThanOrEqual(above.y + above.height);
    }
    await cards.first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await cards.nth(1).evaluate((card) => card === document.activeElement)).toBe(true);
    // One tab stop: the card used last.
    expect(await cards.nth(1).getAttribute('tabindex')).toBe('0');
    expect(await cards.first().getAttribute('tabindex')).toBe('-1');
    expect(await inspectPage(page, 'chat-home-vertical')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('horizontal by default: the cards sit side by side, and the arrows left and right move between them', async () => {
    defaultServed = await startServed();
    const page = await home(defaultServed);
    const { toolbar, cards, neighbours } = await prompts(page);
    expect(await toolbar.getAttribute('aria-orientation')).toBe('horizontal');
    for (const [left, right] of neighbours) {
      expect(right.y).toBe(left.y);
      expect(right.x).toBeGreaterThanOrEqual(left.x + left.width);
    }
    await cards.first().focus();
    await page.keyboard.press('ArrowRight');
    expect(await cards.nth(1).evaluate((card) => card === document.activeElement)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await cards.nth(1).evaluate((card) => card === document.activeElement)).toBe(true);
    expect(pageProblems(page)).toEqual([]);
  });
});
