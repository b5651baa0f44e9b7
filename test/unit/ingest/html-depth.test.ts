/**
 * Issue 27 ("Also"): an HTML file of deeply nested elements is bounded by depth, not only by the
 * parser's time budget — 11 MB of nested tags held a parser process for the whole 120 s.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeParserWorkers, parseDocument } from '../../../main/core/knowledge/ingest/parse.js';
import { PARSE_LIMITS } from '../../../main/core/knowledge/ingest/limits.js';
import { parseHtml } from '../../../main/core/knowledge/ingest/parsers/html.js';
import { IngestError } from '../../../main/core/knowledge/ingest/types.js';

const LIMITS = { maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000, memoryMb: 512 };

afterAll(async () => {
  await closeParserWorkers();
});

describe('HTML nesting depth', () => {
  it('an 11 MB file of nested elements fails at once, saying how deep is too deep', async () => {
    const levels = 2_200_000;
    const html = Buffer.from(`<!doctype html><html><body>${'<div>'.repeat(levels)}deep${'</div>'.repeat(levels)}</body></html>`);
    expect(html.length).toBeGreaterThan(11 * 1024 * 1024);
    let failure: unknown;
    try {
      await parseDocument({ bytes: html, mime: 'text/html', filename: 'deep.html' }, LIMITS);
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(IngestError);
    expect(failure).toMatchObject({ code: 'too_large', message: expect.stringMatching(/nested more than 1000 levels deep/) });
  }, 120_000);

  it('nesting up to the limit is read whole, every branch of it', () => {
    const depth = PARSE_LIMITS.htmlDepth - 3; // html, body and the outer div
    const branches = Array.from({ length: 50 }, (_, i) => `${'<span>'.repeat(depth)}branch${i} ${'</span>'.repeat(depth)}`).join('');
    const text = (html: string) => parseHtml(Buffer.from(html)).blocks.map((b) => b.text).join('\n');
    const read = text(`<html><body><div>${branches}</div></body></html>`);
    for (let i = 0; i < 50; i++) expect(read).toContain(`branch${i}`);
    // An article inside an article is read once, with the outer one.
    expect(text(`<html><body><nav>menu</nav><article><p>first</p><article><p>inner</p></article></article><p>chrome</p></body></html>`)).toBe('first\ninner');
  });

  it('one level more than the limit fails', () => {
    const depth = PARSE_LIMITS.htmlDepth - 1; // html and body are two levels
    expect(() => parseHtml(Buffer.from(`<html><body>${'<b>'.repeat(depth)}x</body></html>`))).toThrow(/nested more than 1000 levels deep/);
  });
});
