/**
 * Issue 10, item 2: small hostile files must fail alone, at once, without exhausting memory —
 * each test builds a real hostile file and parses it through the parser process.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeParserWorkers, parseDocument, TEST_BALLOON_MIME } from '../../../main/core/knowledge/ingest/parse.js';
import { PARSE_LIMITS } from '../../../main/core/knowledge/ingest/limits.js';
import { IngestError } from '../../../main/core/knowledge/ingest/types.js';
import { readZipDirectory } from '../../../main/core/knowledge/ingest/zip-guard.js';
import { docxOf, emptyParagraphsDocx, pdfClaimingPages, wideCsv, zipBombDocx } from '../../fixtures/files/hostile.js';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const LIMITS = { maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000, memoryMb: 512 };

async function failure(bytes: Buffer, mime: string, limits = LIMITS): Promise<IngestError> {
  try {
    await parseDocument({ bytes, mime, filename: 'hostile' }, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(IngestError);
    return error as IngestError;
  }
  throw new Error('expected the hostile file to fail');
}

afterAll(async () => {
  await closeParserWorkers();
});

describe('hostile files fail alone, before they can exhaust memory', () => {
  it('a zip-bomb DOCX that declares 3 GB is refused from its central directory', async () => {
    const bomb = zipBombDocx(3, true);
    expect(bomb.length).toBeLessThan(8 * 1024 * 1024);
    // The directory alone says it: nothing is inflated to refuse it.
    await expect(readZipDirectory(bomb, { maxEntries: PARSE_LIMITS.zipEntries, maxUnpackedBytes: PARSE_LIMITS.zipUnpackedBytes }, 'DOCX')).rejects.toThrow(/unpacks to more than/);
    const error = await failure(bomb, DOCX);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/unpacks to more than 256 MB; it was not opened/);
  }, 60_000);

  it('a zip-bomb DOCX that lies about its size is stopped while inflating, under a bound', async () => {
    const error = await failure(zipBombDocx(3, false), DOCX);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/word\/document\.xml unpacks to more than 64 MB/);
  }, 60_000);

  it('a DOCX of 9 million empty paragraphs (under 1 MB) is refused by its paragraph count', async () => {
    const docx = emptyParagraphsDocx(9_000_000);
    expect(docx.length).toBeLessThan(1024 * 1024);
    const error = await failure(docx, DOCX);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/more than 200000 paragraphs/);
  }, 60_000);

  it('a DOCX with too many archive entries is refused before any is read', async () => {
    const many = zipEntriesDocx(PARSE_LIMITS.zipEntries + 1);
    const error = await failure(many, DOCX);
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/5001 entries/);
  }, 60_000);

  it('a PDF claiming a million pages fails from its page count, not the time limit', async () => {
    const error = await failure(pdfClaimingPages(1_000_000), 'application/pdf');
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/declares 1000000 pages; at most 10000/);
  }, 60_000);

  it('a million-column CSV is refused by its width', async () => {
    const error = await failure(wideCsv(1_000_000), 'text/csv');
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/1000000 columns; at most 16384/);
  }, 60_000);

  it('memory outside the V8 heap is bounded: a parser that allocates without end is killed at the ceiling', async () => {
    process.env.PARLEY_INGEST_TEST_HOOKS = '1';
    try {
      const error = await failure(Buffer.from('x'), TEST_BALLOON_MIME, { ...LIMITS, memoryMb: 192 });
      expect(error.code).toBe('too_large');
      expect(error.message).toMatch(/more than 192 MB of memory/);
    } finally {
      delete process.env.PARLEY_INGEST_TEST_HOOKS;
    }
    // The next file parses normally, in a fresh process.
    const doc = await parseDocument({ bytes: Buffer.from('after the balloon'), mime: 'text/plain', filename: 'ok.txt' }, LIMITS);
    expect(doc.blocks[0]?.text).toBe('after the balloon');
  }, 60_000);

  it('a small, well-formed DOCX still parses under the same limits', async () => {
    const doc = await parseDocument({ bytes: docxOf('<w:p><w:r><w:t>Hello from Word</w:t></w:r></w:p>'), mime: DOCX, filename: 'ok.docx' }, LIMITS);
    expect(doc.blocks.map((b) => b.text)).toEqual(['Hello from Word']);
  }, 60_000);
});

function zipEntriesDocx(entries: number): Buffer {
  // The count sits in the end-of-directory record; the entries themselves are tiny.
  const body = docxOf('<w:p><w:r><w:t>x</w:t></w:r></w:p>');
  const end = body.length - 22;
  const patched = Buffer.from(body);
  patched.writeUInt16LE(entries, end + 8);
  patched.writeUInt16LE(entries, end + 10);
  return patched;
}
