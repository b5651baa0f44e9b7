import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../main/core/knowledge/ingest/chunk.js';
import { pageSpan } from '../../../main/core/knowledge/ingest/page-span.js';
import { parsePdf } from '../../../main/core/knowledge/ingest/parsers/pdf.js';
import { sourceView } from '../../../main/core/knowledge/passages/source-view.js';
import { snippetOf } from '../../../main/search/snippets.js';
import { makePdf } from '../../fixtures/files/index.js';

/**
 * A PDF citation as a reader checks it: the mark holds the fact the answer quotes, and the viewer
 * names the pages its citation names.
 */
const lines = (topic: string, n: number) => Array.from({ length: n }, (_, i) => [`Line ${i + 1} on ${topic} carries words enough to keep snippets short.`]);

async function handbook() {
  const doc = await parsePdf(
    await makePdf([
      [['Staff handbook, benefits chapter.'], ...lines('benefits', 4), ['Remote staff who work from home receive, after their probation period ends,', 'an equipment allowance of EUR 1,200 per year.']],
      [['Second page.'], ...lines('travel', 3)],
      [['Third page.'], ...lines('leave', 3)],
      [['Fourth page.'], ...lines('pensions', 3)],
      [['Fifth page.'], ...lines('parking', 3)],
    ]),
  );
  const chunk = chunkDocument(doc)[0]!;
  // The snippet the search shows for the question, as cited: a window of words around its terms.
  const terms = ['remote', 'staff', 'equipment', 'allowance', 'home'].map((word) => ({ word, stems: [word] }));
  const snippet = snippetOf(chunk.text, terms, 32);
  return { doc, chunk, snippet };
}

describe('a PDF passage in the source viewer', () => {
  it('marks the whole sentence the snippet cut, so the mark holds "EUR 1,200" (the PDF breaks the sentence over two lines)', async () => {
    const { doc, chunk, snippet } = await handbook();
    expect(snippet).not.toContain('EUR 1,200'); // the cause: the window of words stops before the fact
    const view = sourceView(doc, Number(chunk.location.start), Number(chunk.location.end), snippet)!;
    const marked = view.segments.filter((s) => s.highlight).map((s) => s.text).join('');
    expect(marked).toContain('an equipment allowance of EUR 1,200 per year.');
    expect(marked).toContain('Remote staff who work from home');
    expect(marked).not.toContain('Second page.');
  });

  it('names the pages its citation names, with the page count ("pages 1–4 of 5"), whatever part is marked', async () => {
    const { doc, chunk, snippet } = await handbook();
    expect({ page: chunk.location.page, page_end: chunk.location.page_end }).toEqual({ page: 1, page_end: 4 });
    const view = sourceView(doc, Number(chunk.location.start), Number(chunk.location.end), snippet)!;
    expect(view.location).toEqual({ page: 1, page_end: 4 });
    expect(view.total_pages).toBe(5);
  });

  it('one rule for the span: first page to last, one page alone when they are the same', () => {
    expect(pageSpan([undefined, 2, 2, 3, undefined])).toEqual({ page: 2, page_end: 3 });
    expect(pageSpan([4, 4])).toEqual({ page: 4 });
    expect(pageSpan([undefined])).toBeNull();
  });
});
