import type { Locator } from 'playwright-core';

/**
 * The words (runs of letters and digits: a break after a hyphen or a dot is fair) of each matched
 * element's text that the layout split over two lines (a word whose range yields line boxes at two heights), as "element text: word". Empty when every word is whole.
 */
export function brokenWords(locator: Locator): Promise<string[]> {
  return locator.evaluateAll((elements) => {
    const broken: string[] = [];
    for (const el of elements) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(`${(el.textContent ?? '').trim()}: ${match[0]}`);
        }
      }
    }
    return broken;
  });
}

/** Whether the element lies wholly inside the window's width. */
export function insideWindow(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.left >= 0 && box.right <= window.innerWidth;
  });
}

/** Whether two elements share any area on screen (one covering the other, as a toast might). */
export async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}
