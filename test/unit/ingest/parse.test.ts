import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeParserWorkers, parseDocument, TEST_HANG_MIME } from '../../../main/core/knowledge/ingest/parse.js';
import { IngestError, type IngestErrorCode, type ParsedDocument } from '../../../main/core/knowledge/ingest/types.js';
import { garbage, makePdf, makeZip, sampleDocx, samplePdf, SAMPLE_CSV, SAMPLE_HTML, SAMPLE_JSON, SAMPLE_MARKDOWN } from '../../fixtures/files/index.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const LIMITS = { maxBytes: 50 * 1024 * 1024, timeoutMs: 30_000 };

function parse(bytes: Buffer | string, mime: string, filename = 'file', limits = LIMITS): Promise<ParsedDocument> {
  return parseDocument({ bytes: typeof bytes === 'string' ? Buffer.from(bytes) : bytes, mime, filename }, limits);
}

async function failure(promise: Promise<unknown>): Promise<{ code: IngestErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(IngestError);
    const e = error as IngestError;
    return { code: e.code, message: e.message };
  }
  throw new Error('expected the parse to fail');
}

/** Every block's offsets point at its own text in the document's text. */
function expectConsistentOffsets(doc: ParsedDocument): void {
  expect(doc.text).toBeDefined();
  let previousEnd = -1;
  for (const block of doc.blocks) {
    expect(doc.text?.slice(block.start, block.end)).toBe(block.text);
    expect(block.start).toBeGreaterThan(previousEnd);
    previousEnd = block.end;
  }
}

beforeAll(async () => {
  // The first parse starts a worker (through tsx when run from source): not part of any test's time.
  await parse('warm up', 'text/plain');
}, 60_000);

afterAll(async () => {
  await closeParserWorkers();
});

describe('parseDocument: formats', () => {
  it('plain text: paragraphs split on blank lines, Windows newlines normalised', async () => {
    const doc = await parse('First paragraph,\nstill the first.\r\n\r\n  \r\nSecond one.\n\n\n\nThird.', 'text/plain');
    expect(doc.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['paragraph', 'First paragraph,\nstill the first.'],
      ['paragraph', 'Second one.'],
      ['paragraph', 'Third.'],
    ]);
    expectConsistentOffsets(doc);
  });

  it('Markdown: headings with levels and sections, paragraphs, lists, code', async () => {
    const doc = await parse(SAMPLE_MARKDOWN, 'text/markdown', 'guide.md');
    const summary = doc.blocks.map((b) => [b.kind, b.level ?? null, b.text, b.section?.join(' > ')]);
    expect(summary).toEqual([
      ['heading', 1, 'Install', ''],
      ['paragraph', null, 'Parley runs on every desktop.', 'Install'],
      ['heading', 2, 'Linux', 'Install'],
      ['paragraph', null, 'Use the AppImage. See the docs.', 'Install > Linux'],
      ['list', null, '- step one\n- step two\n  - nested step', 'Install > Linux'],
      ['code', null, 'chmod +x Parley.AppImage', 'Install > Linux'],
      ['heading', 2, 'macOS', 'Install'],
      ['paragraph', null, 'Open the DMG.', 'Install > macOS'],
      ['heading', 1, 'Usage', ''],
      ['paragraph', null, 'Ask a question.', 'Usage'],
    ]);
    expectConsistentOffsets(doc);
  });

  it('Markdown: front matter becomes metadata, not text', async () => {
    const doc = await parse('---\ntitle: "Release notes"\ndate: 2024-01-01\n---\n# v2\n\nFaster.\n', 'text/markdown');
    expect(doc.metadata.title).toBe('Release notes');
    expect(doc.text).toBe('v2\n\nFaster.');
  });

  it('HTML: drops scripts, styles and navigation; keeps headings, lists, code and tables', async () => {
    const doc = await parse(SAMPLE_HTML, 'text/html', 'help.html');
    expect(doc.metadata.title).toBe('Parley Help');
    expect(doc.text).not.toMatch(/analytics|tracking|font-family|Pricing|Logo|Copyright|bye/);
    expect(doc.blocks.map((b) => [b.kind, b.level ?? null, b.text])).toEqual([
      ['heading', 1, 'Getting started'],
      ['paragraph', null, 'Parley answers questions about your datasets.'],
      ['heading', 2, 'Uploading'],
      ['paragraph', null, 'Drop files on the window.'],
      ['list', null, '- PDF\n- Word\n  - DOCX only'],
      ['code', null, 'parley serve --port 8080'],
      ['table', null, 'Type | Limit\nPDF | 100 MB'],
    ]);
    expect(doc.blocks[3]?.section).toEqual(['Getting started', 'Uploading']);
    expectConsistentOffsets(doc);
  });

  it('DOCX: headings from Word styles, paragraphs, lists and tables', async () => {
    const doc = await parse(await sampleDocx(), DOCX, 'guide.docx');
    const headings = doc.blocks.filter((b) => b.kind === 'heading').map((b) => [b.level, b.text]);
    expect(headings).toEqual([
      [1, 'Installation Guide'],
      [2, 'Linux'],
      [2, 'Windows'],
    ]);
    const paragraph = doc.blocks.find((b) => b.text.startsWith('Download'));
    expect(paragraph).toMatchObject({ kind: 'paragraph', section: ['Installation Guide', 'Linux'] });
    expect(doc.blocks.find((b) => b.kind === 'list')?.text).toBe('- Open a terminal\n- Run the installer');
    expect(doc.blocks.find((b) => b.kind === 'table')).toMatchObject({ text: 'System | Minimum RAM\nLinux | 4 GB\nWindows | 8 GB', section: ['Installation Guide', 'Windows'] });
    expect(doc.text).toContain('This guide explains how to install Parley.');
    expectConsistentOffsets(doc);
  });

  it('PDF: text of every page, with page numbers on the blocks', async () => {
    const doc = await parse(await samplePdf(), 'application/pdf', 'report.pdf');
    expect(doc.metadata).toMatchObject({ format: 'pdf', pages: 3, title: 'Fixture PDF' });
    expect(doc.blocks.map((b) => [b.page, b.text])).toEqual([
      [1, 'Quarterly report for the northern region.\nRevenue grew in every month.'],
      [1, 'The first page ends here.'],
      [2, 'Page two talks about costs.\nCosts fell by four percent.'],
      [2, 'Staffing stayed the same.'],
      [3, 'Page three is the outlook.\nWe expect steady growth next year.'],
    ]);
    expectConsistentOffsets(doc);
  });

  it('PDF: a word hyphenated at a line end is joined, and its paragraph goes on after it', async () => {
    const pdf = await makePdf([[['The rules for the manip-', 'ulation of trees are here.', 'A third line.'], ['Next paragraph.']]]);
    const doc = await parse(pdf, 'application/pdf', 'rules.pdf');
    expect(doc.blocks.map((b) => [b.page, b.text])).toEqual([
      [1, 'The rules for the manipulation of trees are here.\nA third line.'],
      [1, 'Next paragraph.'],
    ]);
    expectConsistentOffsets(doc);
  });

  it('CSV: the table is kept, and each row is a block', async () => {
    const doc = await parse(SAMPLE_CSV, 'text/csv', 'people.csv');
    expect(doc.table).toEqual({
      columns: ['name', 'age', 'city'],
      rows: [
        ['Ann', '31', 'Oslo'],
        ['Bob, Jr', '40', 'New York'],
        ['Cleo', '27', 'Lima'],
      ],
    });
    expect(doc.blocks.map((b) => [b.kind, b.row, b.text])).toEqual([
      ['row', 1, 'name: Ann; age: 31; city: Oslo'],
      ['row', 2, 'name: Bob, Jr; age: 40; city: New York'],
      ['row', 3, 'name: Cleo; age: 27; city: Lima'],
    ]);
    expectConsistentOffsets(doc);
  });

  it('CSV: semicolons and tabs are recognised; short rows are padded', async () => {
    const semi = await parse('a;b;c\n1;2;3\n4;5\n', 'text/csv');
    expect(semi.table?.rows).toEqual([
      ['1', '2', '3'],
      ['4', '5', ''],
    ]);
    const tsv = await parse('x\ty\n1\t2\n', 'text/tab-separated-values');
    expect(tsv.blocks[0]?.text).toBe('x: 1; y: 2');
  });

  it('JSON: flattened into path: value lines, one block per top-level entry', async () => {
    const doc = await parse(SAMPLE_JSON, 'application/json', 'catalog.json');
    expect(doc.blocks.map((b) => b.text)).toEqual([
      'title: Catalog',
      'items[0].sku: A1\nitems[0].price: 9.5\nitems[0].tags[0]: new\nitems[0].tags[1]: sale\nitems[1].sku: B2\nitems[1].price: 12',
      'meta.version: 3\nmeta.draft: false\nmeta.notes: null',
    ]);
    const array = await parse('[{"id": 1}, {"id": 2, "name": "two words"}]', 'application/json');
    expect(array.blocks.map((b) => b.text)).toEqual(['[0].id: 1', '[1].id: 2\n[1].name: two words']);
    expectConsistentOffsets(doc);
  });

  it('other text types are read as plain text', async () => {
    const doc = await parse('print("hi")\n\nprint("bye")\n', 'text/x-python');
    expect(doc.blocks).toHaveLength(2);
  });
});

describe('parseDocument: failures are IngestErrors', () => {
  it('too_large over maxBytes, before any parsing', async () => {
    const result = await failure(parse('x'.repeat(2000), 'text/plain', 'big.txt', { maxBytes: 1000, timeoutMs: 1000 }));
    expect(result.code).toBe('too_large');
  });

  it('unsupported_media_type for a type no parser reads', async () => {
    expect((await failure(parse(garbage(100), 'image/png'))).code).toBe('unsupported_media_type');
  });

  it.each([
    ['a truncated PDF', async () => (await samplePdf()).subarray(0, 900), 'application/pdf', /PDF/],
    ['binary garbage declared as PDF', async () => garbage(5000), 'application/pdf', /PDF/],
    ['a ZIP that is not a DOCX', async () => makeZip('notes.txt', 'hello'), DOCX, /DOCX.*not a readable Word document/],
    ['binary garbage declared as DOCX', async () => garbage(5000, 7), DOCX, /DOCX/],
    ['invalid JSON declared as JSON', async () => Buffer.from('{"a": [1, 2'), 'application/json', /not valid JSON/],
    ['binary garbage declared as text', async () => garbage(5000, 3), 'text/plain', /not text/],
    ['binary garbage declared as CSV', async () => garbage(5000, 5), 'text/csv', /not text/],
    ['a CSV with an unclosed quote', async () => Buffer.from('a,b\n1,"open\n2,3\n'), 'text/csv', /CSV/],
  ])('parse_error for %s', async (_name, bytes, mime, detail) => {
    const result = await failure(parse(await bytes(), mime));
    expect(result.code).toBe('parse_error');
    expect(result.message).toMatch(detail);
  });

  it.each([
    ['an empty file', Buffer.alloc(0), 'text/plain'],
    ['whitespace only', Buffer.from(' \n\n\t \n'), 'text/plain'],
    ['an empty JSON object', Buffer.from('{}'), 'application/json'],
    ['HTML with only scripts', Buffer.from('<html><script>var a = 1;</script></html>'), 'text/html'],
    ['a CSV with only a header', Buffer.from('a,b,c\n'), 'text/csv'],
  ])('empty for %s', async (_name, bytes, mime) => {
    expect((await failure(parse(bytes, mime))).code).toBe('empty');
  });

  it('empty for a PDF whose pages have no text', async () => {
    const blank = await makePdf([[], []]);
    const result = await failure(parse(blank, 'application/pdf'));
    expect(result.code).toBe('empty');
  });
});

describe('parseDocument: time limit', () => {
  it('stops a parser that hangs, and the next file parses normally', async () => {
    process.env.PARLEY_INGEST_TEST_HOOKS = '1';
    try {
      const started = Date.now();
      const result = await failure(parse('anything', TEST_HANG_MIME, 'hang', { maxBytes: 1000, timeoutMs: 300 }));
      expect(result).toEqual({ code: 'parse_error', message: 'Parsing took longer than 0.3 s and was stopped.' });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      delete process.env.PARLEY_INGEST_TEST_HOOKS;
    }
    const doc = await parse('still working', 'text/plain');
    expect(doc.text).toBe('still working');
  }, 60_000);

  it('stops a real parse that runs over its limit', async () => {
    const big = Buffer.from(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `entry number ${i}`, tags: ['a', 'b'] }))));
    const result = await failure(parse(big, 'application/json', 'big.json', { maxBytes: big.length, timeoutMs: 5 }));
    expect(result.code).toBe('parse_error');
    expect(result.message).toMatch(/took longer than 0\.005 s/);
  }, 60_000);

  it('without the test hook enabled, the hang type is just unsupported', async () => {
    expect((await failure(parse('x', TEST_HANG_MIME))).code).toBe('unsupported_media_type');
  });
});
