/**
 * Issue 12, item 4: a long PDF is read by several parser processes at once, a range of pages each,
 * and joined in page order — the chunks, and the page numbers citations point at, are exactly those
 * of one process reading the whole file. Real PDFs (pdf-lib), real parser processes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../main/core/knowledge/ingest/chunk.js';
import { closeParserWorkers, PARSE_POOL_SIZE, parseDocument, streamChunks, type ParseLimits } from '../../../main/core/knowledge/ingest/parse.js';
import { PDF_MIN_PAGES_PER_PART, PDF_SPLIT_MIN_PAGES, pdfPageRanges } from '../../../main/core/knowledge/ingest/pdf-split.js';
import { IngestError, type Chunk } from '../../../main/core/knowledge/ingest/types.js';
import { makePdf } from '../../fixtures/files/index.js';
import { pdfClaimingPages } from '../../fixtures/files/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-pdf-split-'));
const LIMITS = { maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000, memoryMb: 512 };

afterAll(async () => {
  await closeParserWorkers();
  rmSync(dir, { recursive: true, force: true });
});

/** Page n (1-based) says which page it is in every paragraph, so a chunk's page can be checked against its text. */
function pageText(n: number): string[][] {
  return Array.from({ length: 5 }, (_, k) => [`Marker page${n} paragraph${k} about harbour ledgers and tides.`, `Second line of page${n} paragraph${k}, kept with it.`]);
}

async function ingest(name: string, bytes: Buffer, limits: ParseLimits = LIMITS): Promise<{ chunks: Chunk[]; parts: number; metadata: Record<string, string | number> }> {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const chunks: Chunk[] = [];
  const { parts, metadata } = await streamChunks({ path, size: bytes.length, mime: 'application/pdf', filename: name }, limits, (batch) => chunks.push(...batch));
  return { chunks, parts, metadata };
}

describe('page ranges', () => {
  it('cover every page once, in order, with parts no smaller than the minimum', () => {
    expect(pdfPageRanges(100, 2)).toEqual([
      { from: 0, to: 50 },
      { from: 50, to: 100 },
    ]);
    expect(pdfPageRanges(41, 4)).toEqual([
      { from: 0, to: 20 },
      { from: 20, to: 41 },
    ]);
    expect(pdfPageRanges(PDF_MIN_PAGES_PER_PART, 4)).toEqual([{ from: 0, to: PDF_MIN_PAGES_PER_PART }]);
    for (const pages of [32, 33, 99, 1000, 10_000]) {
      const ranges = pdfPageRanges(pages, 4);
      expect(ranges[0]?.from).toBe(0);
      expect(ranges[ranges.length - 1]?.to).toBe(pages);
      ranges.slice(1).forEach((r, i) => expect(r.from).toBe(ranges[i]?.to));
      for (const r of ranges) expect(r.to - r.from).toBeGreaterThanOrEqual(PDF_MIN_PAGES_PER_PART);
    }
  });
});

describe('a long PDF split across the parser processes', () => {
  it('is read by more than one process and gives the chunks, in order, that one process gives', async () => {
    const pages = 2 * PDF_SPLIT_MIN_PAGES;
    const pdf = await makePdf(Array.from({ length: pages }, (_, i) => pageText(i + 1)), 'Split PDF');
    const split = await ingest('split.pdf', pdf);
    expect(split.parts).toBe(Math.min(PARSE_POOL_SIZE, Math.floor(pages / PDF_MIN_PAGES_PER_PART)));
    expect(split.parts).toBeGreaterThan(1);
    expect(split.metadata).toMatchObject({ format: 'pdf', pages, title: 'Split PDF' });

    // One process reading the whole document (document mode is never split).
    const whole = chunkDocument(await parseDocument({ bytes: pdf, mime: 'application/pdf', filename: 'whole.pdf' }, LIMITS));
    expect(split.chunks).toEqual(whole);

    // Page numbers for citations: each chunk's pages are those its markers name, and they only go forward.
    let lastPage = 0;
    for (const chunk of split.chunks) {
      const named = [...chunk.text.matchAll(/page(\d+) paragraph/g)].map((m) => Number(m[1]));
      expect(named.length).toBeGreaterThan(0);
      expect(chunk.location.page).toBe(Math.min(...named));
      expect(chunk.location.page_end ?? chunk.location.page).toBe(Math.max(...named));
      expect(chunk.location.page).toBeGreaterThanOrEqual(lastPage);
      lastPage = chunk.location.page ?? 0;
    }
    const last = split.chunks[split.chunks.length - 1]?.location;
    expect(last?.page_end ?? last?.page).toBe(pages);
    expect(split.chunks.map((c) => c.ord)).toEqual(split.chunks.map((_, i) => i));
  }, 120_000);

  it('keeps a long PDF whose first part has no text (scanned pages) and fails one with no text at all as empty', async () => {
    const pages = 2 * PDF_SPLIT_MIN_PAGES;
    const halfBlank = await makePdf(Array.from({ length: pages }, (_, i) => (i < pages / 2 ? [] : pageText(i + 1))));
    const { chunks, parts } = await ingest('half-blank.pdf', halfBlank);
    expect(parts).toBeGreaterThan(1);
    expect(chunks[0]?.location.page).toBe(pages / 2 + 1);

    const blank = await makePdf(Array.from({ length: pages }, () => []));
    const error = await ingest('blank.pdf', blank).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IngestError);
    expect(error).toMatchObject({ code: 'empty', message: expect.stringMatching(/none of the 64 page\(s\) has extractable text/) });
  }, 120_000);

  it('a PDF claiming a million pages still fails from its page count, before any part starts', async () => {
    const error = await ingest('million.pdf', pdfClaimingPages(1_000_000)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'too_large', message: expect.stringMatching(/declares 1000000 pages; at most 10000/) });
  }, 60_000);

  it('a PDF whose parts hold more text than the main process should join is read whole by one process, with the same chunks', async () => {
    const pages = 2 * PDF_SPLIT_MIN_PAGES;
    const pdf = await makePdf(Array.from({ length: pages }, (_, i) => pageText(i + 1)));
    const split = await ingest('split-again.pdf', pdf);
    expect(split.parts).toBeGreaterThan(1);
    // Each part holds ~10 KB of text: over a 1,000-character allowance, the file is read whole.
    const whole = await ingest('too-much-text.pdf', pdf, { ...LIMITS, pdfPartMaxChars: 1_000 });
    expect(whole.parts).toBe(1);
    expect(whole.chunks).toEqual(split.chunks);
    expect(whole.metadata).toEqual(split.metadata);
  }, 120_000);

  it('a short PDF is read whole by one process', async () => {
    const pdf = await makePdf(Array.from({ length: PDF_SPLIT_MIN_PAGES - 1 }, (_, i) => pageText(i + 1)));
    const { chunks, parts } = await ingest('short.pdf', pdf);
    expect(parts).toBe(1);
    expect(chunks[chunks.length - 1]?.location.page_end ?? chunks[chunks.length - 1]?.location.page).toBe(PDF_SPLIT_MIN_PAGES - 1);
  }, 60_000);
});
