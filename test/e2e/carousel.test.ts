import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServed, type Served } from '../support/served.js';
import { e2eSuite, inspectPage, pageProblems, signIn, visible } from './support/browser.js';
import { EVENTUALLY_TIMEOUT_MS, eventually } from './support/eventually.js';
import { insideWindow } from './support/layout.js';
import { inspectAtWidths } from './support/widths.js';

/** A data directory whose parley.toml asks for vertical carousels (the rest of the config is defaults). */
const verticalDir = mkdtempSync(join(tmpdir(), 'parley-e2e-carousel-'));
writeFileSync(join(verticalDir, 'parley.toml'), '[ui]\ncarousel = "vertical"\n');
const suite = e2eSuite(() => ({ dataDir: verticalDir }));
let defaultServed: Served | undefined;
/** The home screen the horizontal test opened, reused at 420 px. */
let horizontalPage: Page | undefined;

afterAll(async () => {
  await defaultServed?.stop();
  rmSync(verticalDir, { recursive: true, force: true });
});

/**
 * The home screen of `served`, signed in as its owner, in a fresh profile. A generative model is
 * registered first: with only the built-in extractive model there are no general prompts to lay out.
 */
async function home(served: Served): Promise<Page> {
  const model = await served.api('/models', { body: { name: 'Writer', provider: 'openai_compatible', endpoint_url: 'http://127.0.0.1:9/v1', model: 'writer' } });
  expect(model.status).toBe(201);
  const page = await (await suite.newContext()).newPage();
  await page.goto(`${served.url}/#/chat`);
  await signIn(page, served.apiKey);
  await visible(page.getByRole('heading', { name: 'What would you like to know?' }));
  return page;
}

type Box = { x: number; y: number; width: number; height: number };

const AXES = {
  vertical: { along: 'y', across: 'x', size: 'height', forward: 'ArrowDown', other: 'ArrowRight' },
  horizontal: { along: 'x', across: 'y', size: 'width', forward: 'ArrowRight', other: 'ArrowDown' },
} as const;

/**
 * The suggested prompts are laid out along `orientation`: said by aria-orientation, each card
 * after the one before on that axis and level with it on the other, and the arrow of that
 * direction (only that one) moving to the next card, which becomes the one tab stop.
 */
async function expectLaidOut(page: Page, orientation: keyof typeof AXES): Promise<void> {
  const axis = AXES[orientation];
  const toolbar = page.getByRole('toolbar', { name: 'Suggested prompts' });
  const cards = toolbar.getByRole('button');
  await visible(cards.first());
  await eventually(() => toolbar.getAttribute('aria-orientation')).toBe(orientation);
  await eventually(() => cards.count()).toBeGreaterThanOrEqual(3);
  // Read again until the layout has settled (a switch of orientation re-lays the cards out).
  await vi.waitFor(
    async () => {
      const boxes: Box[] = [];
      for (let i = 0; i < 3; i++) {
        const box = await cards.nth(i).boundingBox();
        if (!box) throw new Error(`card ${i} has no box`);
        boxes.push(box);
      }
      boxes.reduce((before, after) => {
        expect(after[axis.across]).toBe(before[axis.across]);
        expect(after[axis.along]).toBeGreaterThanOrEqual(before[axis.along] + before[axis.size]);
        return after;
      });
    },
    { timeout: EVENTUALLY_TIMEOUT_MS, interval: 50 },
  );

  const focused = (i: number) => cards.nth(i).evaluate((card) => card === document.activeElement);
  await cards.first().focus();
  await page.keyboard.press(axis.other);
  await eventually(() => focused(0)).toBe(true);
  await page.keyboard.press(axis.forward);
  await eventually(() => focused(1)).toBe(true);
  await eventually(() => cards.nth(1).getAttribute('tabindex')).toBe('0');
  await eventually(() => cards.first().getAttribute('tabindex')).toBe('-1');
}

describe('the home carousels follow [ui] carousel', () => {
  it('vertical: the cards stack down the page, and the arrows up and down move between them', async () => {
    const page = await home(suite.served);
    await expectLaidOut(page, 'vertical');
    expect(await inspectPage(page, 'chat-home-vertical')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });

  it('horizontal by default: the cards sit side by side, and the arrows left and right move between them', async () => {
    defaultServed = await startServed();
    const page = await home(defaultServed);
    horizontalPage = page;
    await expectLaidOut(page, 'horizontal');
    expect(pageProblems(page)).toEqual([]);
  });

  it('horizontal at 420 px: the cards wrap, none cut off at the window edge', async () => {
    const page = horizontalPage;
    if (!page) throw new Error('the horizontal test opens the home screen');
    await page.setViewportSize({ width: 420, height: 900 });
    const cards = page.getByRole('toolbar', { name: 'Suggested prompts' }).getByRole('button');
    await eventually(() => cards.count()).toBeGreaterThanOrEqual(3);
    for (const card of await cards.all()) await eventually(() => insideWindow(card)).toBe(true);
    expect(await inspectAtWidths(page, 'chat-home-cards')).toEqual([]);
    expect(pageProblems(page)).toEqual([]);
  });
});
