/**
 * The pages a passage is on, as its citation and its source view both state them: from the page of
 * its first block on a page to that of its last. One rule for both, so the Sources list and the
 * viewer never name different pages for one passage (they did: "pages 1–5" against "pages 1–2").
 */
export interface PageSpan {
  page: number;
  /** Only when the passage runs over more than one page. */
  page_end?: number;
}

export function pageSpan(pages: Iterable<number | undefined>): PageSpan | null {
  let first: number | undefined;
  let last: number | undefined;
  for (const page of pages) {
    if (page === undefined) continue;
    first ??= page;
    last = page;
  }
  if (first === undefined || last === undefined) return null;
  return last === first ? { page: first } : { page: first, page_end: last };
}
