/**
 * Issue 10, item 5: chunks have a hard maximum size whatever the format, and a prompt never
 * outgrows the model's context — with a real giant-row CSV and a real wide CSV, parsed and chunked
 * by the parser process as the ingest queue does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withPassages } from '../../../main/core/answering/grounding.js';
import { closeParserWorkers, parseAndChunk } from '../../../main/core/knowledge/ingest/parse.js';
import { messageTokens, REPLY_RESERVE_TOKENS } from '../../../main/core/platform/tokens.js';
import { giantRowCsv, wideCsv } from '../../fixtures/files/hostile.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-giant-'));
const LIMITS = { maxBytes: 200 * 1024 * 1024, timeoutMs: 120_000, memoryMb: 1024 };
/** Default target (1200) plus the longest prefix (path 200 + header 400) and separators. */
const HARD_MAX = 1200 + 10;

afterAll(async () => {
  await closeParserWorkers();
  rmSync(dir, { recursive: true, force: true });
});

async function chunksOf(name: string, bytes: Buffer) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return parseAndChunk({ path, size: bytes.length, mime: 'text/csv', filename: name }, LIMITS);
}

describe('giant input makes bounded chunks', () => {
  it('a CSV row of 30 MB becomes many chunks, none over the hard maximum, each naming its row', async () => {
    const { chunks } = await chunksOf('giant.csv', giantRowCsv(30));
    expect(chunks.length).toBeGreaterThan(20_000);
    const longest = chunks.reduce((max, c) => Math.max(max, c.text.length), 0);
    expect(longest).toBeLessThanOrEqual(HARD_MAX);
    expect(chunks.every((c) => c.location.row_start === 1 && c.location.row_end === 1)).toBe(true);
    expect(chunks[0]?.text.startsWith('Columns: id, body\nid: 1; body: lorem ipsum')).toBe(true);
  }, 180_000);

  it('a CSV of 10,000 columns keeps its chunks bounded: the repeated header is cut short', async () => {
    const { chunks } = await chunksOf('wide.csv', wideCsv(10_000));
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(HARD_MAX);
    expect(chunks[0]?.text).toMatch(/^Columns: c0, c1, c2, .*…\n/);
  }, 180_000);

  it('passages are cut to the model context: a 94 MB passage sent to an 8,192-token model fits', () => {
    const giant = 'word '.repeat(19_000_000);
    const passages = [1, 2, 3].map((index) => ({ index, artifact_key: 'giant.csv', text: giant, snippet: 'word', location: { start: 0, end: giant.length } }));
    const turns = withPassages([{ role: 'user', content: 'What is in it?' }], passages, 8192);
    const total = turns.reduce((n, t) => n + messageTokens(t.content), 0);
    expect(total).toBeLessThanOrEqual(8192 - REPLY_RESERVE_TOKENS);
    expect(turns[0]?.content).toContain('[1] giant.csv');
    expect(turns.at(-1)).toEqual({ role: 'user', content: 'What is in it?' });
  });
});
