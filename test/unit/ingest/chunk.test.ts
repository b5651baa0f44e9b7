import { afterAll, describe, expect, it } from 'vitest';
import { DocumentBuilder } from '../../../main/core/knowledge/ingest/builder.js';
import { chunkDocument } from '../../../main/core/knowledge/ingest/chunk.js';
import { closeParserWorkers, parseDocument } from '../../../main/core/knowledge/ingest/parse.js';
import type { Chunk, ParsedDocument } from '../../../main/core/knowledge/ingest/types.js';
import { makePdf } from '../../fixtures/files/index.js';
import { wordsOf } from '../../../shared/words.js';

afterAll(async () => {
  await closeParserWorkers();
});

/** Deterministic prose: `count` sentences of a few words each. */
function sentences(count: number, seed = 1): string {
  const words = ['parley', 'reads', 'files', 'quickly', 'and', 'answers', 'with', 'citations', 'from', 'the', 'dataset', 'every', 'time', 'users', 'ask'];
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 6 + (next() % 8);
    const s = Array.from({ length: n }, () => words[next() % words.length]).join(' ');
    out.push(`${s[0]?.toUpperCase()}${s.slice(1)} number ${i}.`);
  }
  return out.join(' ');
}

function doc(build: (b: DocumentBuilder) => void, metadata: ParsedDocument['metadata'] = {}): ParsedDocument {
  const builder = new DocumentBuilder();
  build(builder);
  return builder.build(metadata);
}

/** The chunk's text is its prefix followed by exactly the text its offsets point at. */
function expectOffsetsMapBack(d: ParsedDocument, chunks: Chunk[]): void {
  for (const chunk of chunks) {
    const body = d.text?.slice(chunk.location.start, chunk.location.end) ?? '';
    expect(body.length).toBeGreaterThan(0);
    expect(chunk.text.endsWith(body)).toBe(true);
    const prefix = chunk.text.slice(0, chunk.text.length - body.length);
    if (chunk.location.section) expect(prefix.startsWith(`${chunk.location.section}: `)).toBe(true);
    else if (!chunk.location.row_start) expect(prefix).toBe('');
  }
  expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
}

describe('chunkDocument', () => {
  it('keeps a short section whole, prefixed with its section path', () => {
    const d = doc((b) => {
      b.add('heading', 'Install', { level: 1 });
      b.add('heading', 'Linux', { level: 2 });
      b.add('paragraph', 'Run the AppImage.');
    });
    const chunks = chunkDocument(d);
    expect(chunks).toEqual([{ ord: 0, text: 'Install > Linux: Run the AppImage.', location: { start: d.text?.indexOf('Run') ?? -1, end: d.text?.length ?? -1, section: 'Install > Linux' } }]);
  });

  it('never crosses a top-level section, but packs small subsections of one', () => {
    const d = doc((b) => {
      b.add('heading', 'Install', { level: 1 });
      b.add('paragraph', 'Pick your system.');
      b.add('heading', 'Linux', { level: 2 });
      b.add('paragraph', 'Run the AppImage.');
      b.add('heading', 'macOS', { level: 2 });
      b.add('paragraph', 'Open the DMG.');
      b.add('heading', 'Usage', { level: 1 });
      b.add('paragraph', 'Ask a question.');
    });
    const chunks = chunkDocument(d);
    expect(chunks.map((c) => c.text)).toEqual(['Install: Pick your system.\n\nLinux\n\nRun the AppImage.\n\nmacOS\n\nOpen the DMG.', 'Usage: Ask a question.']);
    expect(chunks.map((c) => c.location.section)).toEqual(['Install', 'Usage']);
    expectOffsetsMapBack(d, chunks);
  });

  it('splits a long section at sentence ends, every piece prefixed, consecutive pieces overlapping', () => {
    const long = sentences(120);
    const d = doc((b) => {
      b.add('heading', 'Guide', { level: 1 });
      b.add('heading', 'Details', { level: 2 });
      b.add('paragraph', long);
      b.add('heading', 'Other', { level: 1 });
      b.add('paragraph', 'Short.');
    });
    const chunks = chunkDocument(d, { targetChars: 400, overlapChars: 80 });
    const details = chunks.filter((c) => c.location.section === 'Guide > Details');
    expect(details.length).toBeGreaterThan(5);
    for (const [i, chunk] of details.entries()) {
      expect(chunk.text.startsWith('Guide > Details: ')).toBe(true);
      expect(chunk.text.length).toBeLessThanOrEqual(400);
      // Pieces start at a sentence start and end at a sentence end.
      const body = chunk.text.slice('Guide > Details: '.length);
      expect(body).toMatch(/^[A-Z]/);
      if (i < details.length - 1) expect(body).toMatch(/\.$/);
      const next = details[i + 1];
      if (next) {
        expect(next.location.start).toBeLessThan(chunk.location.end);
        expect(chunk.location.end - next.location.start).toBeLessThanOrEqual(80);
      }
    }
    // The pieces cover the whole paragraph.
    expect(details[0]?.location.start).toBe(d.text?.indexOf(long));
    expect(details[details.length - 1]?.location.end).toBe((d.text?.indexOf(long) ?? 0) + long.length);
    // No overlap into the next top-level section.
    const other = chunks.find((c) => c.location.section === 'Other');
    expect(other?.text).toBe('Other: Short.');
    expectOffsetsMapBack(d, chunks);
  });

  it('with no overlap, pieces tile the text exactly', () => {
    const d = doc((b) => b.add('paragraph', sentences(60, 3)));
    const chunks = chunkDocument(d, { targetChars: 300, overlapChars: 0 });
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]?.location.start).toBeGreaterThanOrEqual(chunks[i - 1]?.location.end ?? 0);
    expect(chunks.map((c) => c.text).join(' ')).toBe(d.text);
  });

  it('cuts long Chinese text without newlines or spaces at its full stops 。！？', () => {
    const said = ['员工每周最多可以远程办公三天。', '设备补贴是一千二百欧元！', '停车场在地下一层，员工停车免费。', '会议室需要提前一天预订吗？'];
    const long = Array.from({ length: 80 }, (_, i) => said[i % said.length]).join('');
    const d = doc((b) => b.add('paragraph', long));
    const chunks = chunkDocument(d, { targetChars: 200, overlapChars: 40 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const [i, chunk] of chunks.entries()) {
      expect(chunk.text.length).toBeLessThanOrEqual(200);
      if (i < chunks.length - 1) expect(chunk.text).toMatch(/[。！？]$/);
      // The overlap starts a sentence too.
      if (i > 0) expect(said.some((s) => chunk.text.startsWith(s))).toBe(true);
    }
    expect(chunks.at(-1)?.location.end).toBe(long.length);
    expectOffsetsMapBack(d, chunks);
  });

  it('cuts Chinese and Thai runs with neither full stops nor spaces between words, never inside one', () => {
    for (const [run, count] of [
      ['员工每周最多可以远程办公三天设备补贴是一千二百欧元停车场在地下一层', 60],
      ['ที่จอดรถอยู่ชั้นล่างห้องประชุมอยู่ชั้นสอง', 80],
    ] as const) {
      const long = run.repeat(count);
      const d = doc((b) => b.add('paragraph', long));
      const chunks = chunkDocument(d, { targetChars: 300, overlapChars: 50 });
      expect(chunks.length).toBeGreaterThan(4);
      const starts = new Set([0, ...[...wordsOf(long)].map((w) => w.index)]);
      const ends = new Set([...wordsOf(long)].map((w) => w.index + w.text.length));
      for (const chunk of chunks) {
        expect(chunk.text.length).toBeLessThanOrEqual(300);
        expect(starts.has(chunk.location.start)).toBe(true);
        expect(ends.has(chunk.location.end)).toBe(true);
      }
      expect(chunks.at(-1)?.location.end).toBe(long.length);
      expectOffsetsMapBack(d, chunks);
    }
  });

  it('cuts a giant token anywhere rather than loop or overflow', () => {
    const d = doc((b) => b.add('paragraph', 'x'.repeat(5000)));
    const chunks = chunkDocument(d, { targetChars: 1000, overlapChars: 100 });
    expect(chunks.every((c) => c.text.length <= 1000)).toBe(true);
    expect(chunks[chunks.length - 1]?.location.end).toBe(5000);
  });

  it('CSV: whole rows per chunk, the header repeated, row ranges in the location', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${i + 1},name ${i + 1},city ${i % 7}`);
    const parsed = await parseDocument({ bytes: Buffer.from(['id,name,city', ...rows].join('\n')), mime: 'text/csv', filename: 'x.csv' }, { maxBytes: 1e6, timeoutMs: 30_000 });
    const chunks = chunkDocument(parsed, { targetChars: 300 });
    expect(chunks.length).toBeGreaterThan(3);
    let expected = 1;
    for (const chunk of chunks) {
      expect(chunk.text.startsWith('Columns: id, name, city\n')).toBe(true);
      expect(chunk.location.row_start).toBe(expected);
      const lines = chunk.text.split('\n').slice(1);
      expect(lines).toHaveLength((chunk.location.row_end ?? 0) - (chunk.location.row_start ?? 0) + 1);
      expect(lines[0]).toBe(`id: ${expected}; name: name ${expected}; city: city ${(expected - 1) % 7}`);
      expected = (chunk.location.row_end ?? 0) + 1;
    }
    expect(expected).toBe(61);
    expectOffsetsMapBack(parsed, chunks);
  }, 60_000);

  it('PDF: chunks carry their first page and, when they run over, the last', async () => {
    const line = 'This line of the report is long enough to fill the page.';
    const page = (n: number) => [[`Page ${n} starts here.`, line, line], [line, line, `Page ${n} ends here.`]];
    const parsed = await parseDocument({ bytes: await makePdf([page(1), page(2), page(3)]), mime: 'application/pdf', filename: 'r.pdf' }, { maxBytes: 1e6, timeoutMs: 30_000 });
    const chunks = chunkDocument(parsed, { targetChars: 250, overlapChars: 40 });
    expect(chunks[0]?.location.page).toBe(1);
    for (const chunk of chunks) {
      const blocks = parsed.blocks.filter((b) => b.start < chunk.location.end && b.end > chunk.location.start);
      expect(chunk.location.page).toBe(blocks[0]?.page);
      const last = blocks[blocks.length - 1]?.page;
      if (last !== chunk.location.page) expect(chunk.location.page_end).toBe(last);
      else expect(chunk.location.page_end).toBeUndefined();
    }
    expect(chunks.some((c) => c.location.page_end !== undefined)).toBe(true);
    expect(chunks[chunks.length - 1]?.location.page ?? 0).toBeGreaterThanOrEqual(2);
    expectOffsetsMapBack(parsed, chunks);
  }, 60_000);

  it('JSON: long entries are cut at line ends', () => {
    const lines = Array.from({ length: 80 }, (_, i) => `items[${i}].description: Item number ${i}. It is fine.`);
    const d = doc((b) => b.add('paragraph', lines.join('\n')), { format: 'json' });
    const chunks = chunkDocument(d, { targetChars: 400, overlapChars: 0 });
    for (const chunk of chunks) {
      expect(chunk.text).toMatch(/^items\[\d+\]\.description: /);
      expect(chunk.text).toMatch(/It is fine\.$/);
    }
  });

  it('is deterministic', () => {
    const d = doc((b) => {
      for (let s = 0; s < 5; s++) {
        b.add('heading', `Section ${s}`, { level: 1 });
        b.add('paragraph', sentences(30, s + 1));
        b.add('list', '- a\n- b');
      }
    });
    expect(chunkDocument(d)).toEqual(chunkDocument(structuredClone(d)));
  });

  it('works on a document built without `text`', () => {
    const d = doc((b) => {
      b.add('heading', 'A', { level: 1 });
      b.add('paragraph', 'Alpha.');
    });
    const withoutText: ParsedDocument = { blocks: d.blocks, metadata: {} };
    expect(chunkDocument(withoutText)).toEqual(chunkDocument(d));
  });

  it('a document of headings only still yields its text', () => {
    const d = doc((b) => {
      b.add('heading', 'Only', { level: 1 });
      b.add('heading', 'Headings', { level: 2 });
    });
    expect(chunkDocument(d).map((c) => c.text)).toEqual(['Only\n\nHeadings']);
  });
});
