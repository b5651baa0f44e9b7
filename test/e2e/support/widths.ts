import type { Page } from 'playwright-core';
import { inspectPage } from './browser.js';

/** The widths the issue asks every screen to be looked at in: a desktop window and a phone-sized one. */
export const WIDTHS = [1440, 420] as const;

/**
 * `inspectPage` at each width (light and dark each): screenshots `<name>-<width>-<scheme>.png` and
 * the axe violations found. `prepare` runs after each resize (open a drawer, say). The viewport
 * is left at the last width.
 */
export async function inspectAtWidths(page: Page, name: string, prepare?: (width: number) => Promise<void>): Promise<string[]> {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await prepare?.(width);
    found.push(...(await inspectPage(page, `${name}-${width}`)));
  }
  return found;
}

/** `inspectAtWidths`, then the viewport set back to `size`: for files whose other tests expect that window. */
export async function inspectAtWidthsThenResize(page: Page, name: string, size: { width: number; height: number }): Promise<string[]> {
  const found = await inspectAtWidths(page, name);
  await page.setViewportSize(size);
  return found;
}
