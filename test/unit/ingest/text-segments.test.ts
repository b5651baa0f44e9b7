/**
 * Issue 12, item 4: plain text is chunked a segment at a time, so the parser process streams the
 * first chunks before it has read the whole file — and the chunks still point into the very text
 * `parseText` extracts, in order, covering every paragraph.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../main/core/knowledge/ingest/chunk.js';
import { closeParserWorkers, streamChunks } from '../../../main/core/knowledge/ingest/parse.js';
import { parseText } from '../../../main/core/knowledge/ingest/parsers/text.js';
import { textChunksBySegment } from '../../../main/core/knowledge/ingest/text-segments.js';
import type { Chunk } from '../../../main/core/knowledge/ingest/types.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-text-segments-'));

afterAll(async () => {
  await closeParserWorkers();
  rmSync(dir, { recursive: true, force: true });
});

/** Paragraphs of varied length, some separated by lines of spaces or form feeds, each naming its number. */
function sampleText(paragraphs: number): string {
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    const sentences = Array.from({ length: 1 + (i % 9) }, (_, k) => `Paragraph${i} sentence ${k} tells of harbour ledgers, tides and rope.`);
    parts.push(sentences.join(i % 4 === 0 ? '\n' : ' '));
  }
  return parts.map((p, i) => (i === 0 ? p : `${i % 7 === 0 ? '\n  \n' : i % 11 === 0 ? '\f' : '\n\n'}${p}`)).join('');
}

function expectPointsInto(chunks: readonly Chunk[], text: string, paragraphs: number): void {
  expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
  for (const chunk of chunks) expect(text.slice(chunk.location.start, chunk.location.end)).toBe(chunk.text);
  // Every paragraph is in some chunk, in order.
  const named = chunks.flatMap((c) => [...c.text.matchAll(/Paragraph(\d+) sentence 0 /g)].map((m) => Number(m[1])));
  expect([...new Set(named)]).toEqual([...new Set(named)].sort((a, b) => a - b));
  expect(new Set(named).size).toBe(paragraphs);
}

describe('plain text chunked by segment', () => {
  const text = sampleText(600);
  const doc = parseText(Buffer.from(text));

  it('yields a segment’s chunks before reading the rest, pointing into parseText’s text', () => {
    const segments = textChunksBySegment(text, 8_000);
    const first = segments.next();
    expect(first.done).toBe(false);
    const firstChunks = first.value as Chunk[];
    // The first segment holds about 8,000 characters of a text of ~70,000.
    expect(text.length).toBeGreaterThan(60_000);
    expect(firstChunks[firstChunks.length - 1]!.location.end).toBeLessThan(12_000);
    const all = [...firstChunks, ...[...segments].flat()];
    expectPointsInto(all, doc.text!, 600);
  });

  it('with one segment, gives exactly the chunks of the whole document', () => {
    const whole = [...textChunksBySegment(text, Number.POSITIVE_INFINITY)];
    expect(whole).toHaveLength(1);
    expect(whole[0]).toEqual(chunkDocument(doc));
  });

  it('the parser process streams a text file’s chunks in order, pointing into its text', async () => {
    const big = sampleText(30_000);
    const path = join(dir, 'big.txt');
    writeFileSync(path, big);
    const chunks: Chunk[] = [];
    const { metadata } = await streamChunks({ path, size: Buffer.byteLength(big), mime: 'text/plain', filename: 'big.txt' }, { maxBytes: 100 * 1024 * 1024, timeoutMs: 120_000 }, (batch) =>
      chunks.push(...batch),
    );
    expect(metadata).toEqual({ format: 'text', encoding: 'utf-8' });
    expectPointsInto(chunks, parseText(Buffer.from(big)).text!, 30_000);
  }, 120_000);

  it('a text of blank lines only is empty', async () => {
    const path = join(dir, 'blank.txt');
    writeFileSync(path, '\n\n   \n\n\f\n');
    const failed = await streamChunks({ path, size: 9, mime: 'text/plain', filename: 'blank.txt' }, { maxBytes: 1024, timeoutMs: 60_000 }, () => undefined).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toMatchObject({ code: 'empty' });
  }, 60_000);
});
