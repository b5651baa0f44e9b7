import { markedRuns, type MarkWords } from '../datasets/search-marks.js';

/** The CSS highlight (`::highlight(parley-search-hit)`) the searched words of the message found by a thread search are painted with. */
export const SEARCH_HIT_HIGHLIGHT = 'parley-search-hit';

/** Where a message's own text is: its bubble, or its answer's Markdown (not its buttons, sources or notes). */
const TEXT_OF_MESSAGE = '.bubble, .markdown';

/**
 * Paints the searched words inside a message's text with the CSS Custom Highlight API: ranges over
 * the text React rendered, so the Markdown's DOM is never changed under React. The Markdown
 * renderer loads lazily and replaces its first plain rendering, so the words are found again
 * whenever the message's DOM changes. Returns the cleanup. Where the API is missing (older
 * browsers), the message is still scrolled to and outlined; only the words are not painted.
 */
export function paintSearchedWords(message: HTMLElement, words: MarkWords): () => void {
  const registry = typeof CSS !== 'undefined' ? CSS.highlights : undefined;
  if (!registry || typeof Highlight === 'undefined' || words.words.length === 0) return () => undefined;
  const paint = () => {
    const ranges: Range[] = [];
    for (const part of message.querySelectorAll(TEXT_OF_MESSAGE)) {
      const walker = document.createTreeWalker(part, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        let at = 0;
        for (const run of markedRuns(node.textContent ?? '', words)) {
          if (run.marked) {
            const range = document.createRange();
            range.setStart(node, at);
            range.setEnd(node, at + run.text.length);
            ranges.push(range);
          }
          at += run.text.length;
        }
      }
    }
    registry.set(SEARCH_HIT_HIGHLIGHT, new Highlight(...ranges));
  };
  paint();
  const observer = new MutationObserver(paint);
  observer.observe(message, { childList: true, subtree: true, characterData: true });
  return () => {
    observer.disconnect();
    registry.delete(SEARCH_HIT_HIGHLIGHT);
  };
}
