import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexEmbeddings, searchHybrid, searchKeyword } from '../../../main/search/index.js';
import { keywordQuestion, keywordRanking, rankShared } from '../../../main/search/keyword/keyword.js';
import { KeywordThread } from '../../../main/search/keyword/keyword-thread.js';
import { layOut } from '../../../main/search/keyword/layout.js';
import type { KeywordOptions } from '../../../main/search/keyword/plan.js';
import type { ChunkReader, KbRange } from '../../../main/db/repositories/chunks.js';
import { DOCUMENTS } from '../../fixtures/corpus/documents.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { corpusDb, retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
const threads: KeywordThread[] = [];
afterEach(async () => {
  for (const t of threads.splice(0)) await t.close();
  open.splice(0).forEach((r) => r.close());
});

const track = <T extends RetrievalDb>(r: T) => (open.push(r), r);
const threadOn = (file: string, log?: (line: string) => void) => {
  const t = new KeywordThread({ file, ...(log ? { log } : {}) });
  threads.push(t);
  return t;
};

/**
 * Hands a search to the thread as keyword.ts does: undefined when the thread cannot take it now,
 * else the function that finishes it on the caller's connection (undefined from it when the thread
 * could not go on with the search).
 */
const shareOn = (thread: KeywordThread, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions = {}) => {
  const question = keywordQuestion(ranges, text, limit, options);
  const shared = thread.share(question);
  return shared && ((chunks: ChunkReader) => rankShared(chunks, question, shared));
};
const workOf = (chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions, split: boolean) =>
  layOut(chunks, keywordQuestion(ranges, text, limit, options), split);

const QUESTIONS = [
  'Why does heat make the honey ferment in the hive?',
  'How do mRNA vaccines train immunity?',
  'What pulls the tides twice a day?',
  'the of and',
  'zeppelin quasar',
];

describe('keyword ranking in a thread of its own', () => {
  it('ranks in the worker what this thread would rank, so hybrid search answers the same', async () => {
    const c = track(corpusDb());
    const embed = hashedEmbedder(64);
    await indexEmbeddings(c, embed, { model: 'hashed-64' });
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    const ranges = c.chunks.kbRanges([c.kb]);
    let queries = 0;
    for (const text of QUESTIONS) {
      // Given the time, the worker plans the question and runs every query: the caller only merges.
      const take = shareOn(thread, ranges, text, 30)!;
      await vi.waitFor(() => expect(thread.workerCaughtUp()).toBe(true));
      expect(take(c.chunks)).toEqual(keywordRanking(c.chunks, ranges, text, 30, {}));
      queries += workOf(c.chunks, ranges, text, 30, {}, true).pieces.length;
    }
    expect(thread.queries).toEqual({ caller: 0, worker: queries });
    expect(queries).toBeGreaterThan(0);
    for (const text of QUESTIONS) {
      const query = { kb_ids: [c.kb], text, limit: 8 };
      expect(await searchHybrid(c, query, embed, { keywords: thread })).toEqual(await searchHybrid(c, query, embed));
    }
    // Every search above went through the thread: none ran in place.
    expect(thread.served).toBe(QUESTIONS.length * 2);
    // Options reach it (a caller's log function, which no thread can receive, does not).
    const narrow = shareOn(thread, ranges, QUESTIONS[0]!, 30, { maxTerms: 1, log: () => {} } as never)?.(c.chunks);
    expect(narrow).toEqual(keywordRanking(c.chunks, ranges, QUESTIONS[0]!, 30, { maxTerms: 1 }));
    expect(narrow!.plan.select).toHaveLength(1);
  });

  it('shares a search query by query with the caller, each query run once, spans halved, and ranks as one thread would', async () => {
    const r = track(retrievalDb());
    const kbs = ['A', 'B', 'C'].map((name) => r.addKb(name));
    DOCUMENTS.forEach((d, i) => r.addDocument(kbs[i % 3]!, d.key, d.text));
    DOCUMENTS.forEach((d, i) => r.addDocument(kbs[(i + 1) % 3]!, `again/${d.key}`, d.text));
    const thread = threadOn(r.db.name);
    expect(await thread.start()).toBe(true);
    // Every span halved; small budgets so that terms also boost and nudge.
    const options = { splitChunks: 1, scoreBudget: 6, maxBoostDf: 8 };
    let queries = 0;
    for (const ids of [[kbs[0]!], [kbs[0]!, kbs[2]!], kbs]) {
      const ranges = r.chunks.kbRanges(ids);
      for (const text of QUESTIONS) {
        const work = workOf(r.chunks, ranges, text, 10, options, true);
        queries += work.pieces.length;
        expect(shareOn(thread, ranges, text, 10, options)?.(r.chunks)).toEqual(keywordRanking(r.chunks, ranges, text, 10, options));
        const query = { kb_ids: ids, text, limit: 10 };
        expect(searchKeyword(r, query, { ...options, keywords: thread })).toEqual(searchKeyword(r, query, options));
        queries += work.pieces.length;
      }
    }
    expect(thread.served).toBe(3 * QUESTIONS.length * 2);
    // Each query of those searches ran once, on one thread or the other.
    expect(thread.queries.caller + thread.queries.worker).toBe(queries);
  });

  it('reads what the app has committed since it started', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    const text = 'Which lighthouse keeper logged the zeppelin?';
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), text, 10)?.(c.chunks)?.ranked).toEqual([]);
    c.addDocument(c.kb, 'logs/keeper.md', 'The lighthouse keeper logged a zeppelin over the harbour at dawn.');
    const ranked = shareOn(thread, c.chunks.kbRanges([c.kb]), text, 10)!(c.chunks)!.ranked;
    expect(ranked).toHaveLength(1);
    expect(c.chunks.hit(ranked[0]!.id)?.artifact_key).toBe('logs/keeper.md');
  });

  it('leaves the ranking to the caller while it starts and while it ranks another question', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    // The first ask starts the worker and is answered in place.
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10)).toBeUndefined();
    expect(await thread.start()).toBe(true);
    const first = shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10);
    expect(first).toBeTypeOf('function');
    // Held until its answer is taken: a second search at the same time ranks on its own thread, using the other core.
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10)).toBeUndefined();
    expect(first!(c.chunks)).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10, {}));
    // An answer is taken once.
    expect(first!(c.chunks)).toBeUndefined();
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10)?.(c.chunks)).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10, {}));
    expect(thread.served).toBe(2);
  });

  it('says once when it cannot open the database, and hybrid search ranks in place', async () => {
    const c = track(corpusDb());
    const embed = hashedEmbedder(32);
    await indexEmbeddings(c, embed, { model: 'hashed-32' });
    const lines: string[] = [];
    const thread = threadOn(join(c.db.name, '..', 'missing.db'), (line) => lines.push(line));
    expect(await thread.start()).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/the keyword search thread stopped \(.+\): keyword ranking runs on the main thread/)]);
    // With SQLite's reason, not just the thread's exit code.
    expect(lines[0]).not.toMatch(/exit code/);
    const query = { kb_ids: [c.kb], text: QUESTIONS[0]!, limit: 5 };
    const hits = await searchHybrid(c, query, embed, { keywords: thread });
    expect(hits).toEqual(await searchHybrid(c, query, embed));
    expect(hits[0]!.artifact_key).toBe(DOCUMENTS.find((d) => d.key.includes('honeybees'))!.key);
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 5)).toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it('leaves to the caller what the worker fails at, says so once, and ranks as one thread would', async () => {
    const c = track(corpusDb());
    // The worker reads a copy whose keyword index is damaged: its plans or its queries fail, the caller's do not.
    c.db.pragma('wal_checkpoint(TRUNCATE)');
    const damaged = join(dirname(c.db.name), 'damaged.db');
    copyFileSync(c.db.name, damaged);
    const db = new Database(damaged);
    // FTS5's own tables are read-only to SQL unless defensive mode is off.
    db.unsafeMode(true);
    db.exec('UPDATE chunks_fts_data SET block = randomblob(length(block)) WHERE id > 10');
    db.close();
    const lines: string[] = [];
    const thread = threadOn(damaged, (line) => lines.push(line));
    expect(await thread.start()).toBe(true);
    const ranges = c.chunks.kbRanges([c.kb]);
    for (const text of QUESTIONS) {
      const take = shareOn(thread, ranges, text, 10)!;
      await vi.waitFor(() => expect(thread.workerCaughtUp()).toBe(true));
      expect(take(c.chunks)).toEqual(keywordRanking(c.chunks, ranges, text, 10, {}));
    }
    expect(lines).toEqual([expect.stringMatching(/the keyword search thread failed at a search \(.+\): the main thread ran its part/)]);
    expect(thread.served).toBe(QUESTIONS.length);
    expect(thread.queries.worker).toBe(0);
  });

  it('lets a fault of the search itself show in the caller, as it would without the thread', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    // A range no id can bound: FTS5's rowid arguments cannot be made of it.
    const broken = [{ ...c.chunks.kbRanges([c.kb])[0]!, lo: Number.NaN }];
    expect(() => keywordRanking(c.chunks, broken, QUESTIONS[0]!, 10, {})).toThrow();
    expect(() => shareOn(thread, broken, QUESTIONS[0]!, 10)!(c.chunks)).toThrow();
    // Released all the same: the next search goes through it.
    const ranges = c.chunks.kbRanges([c.kb]);
    expect(shareOn(thread, ranges, QUESTIONS[1]!, 10)?.(c.chunks)).toEqual(keywordRanking(c.chunks, ranges, QUESTIONS[1]!, 10, {}));
  });

  it('answers what it was asked with nothing once closed, and is not asked again', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    const pending = shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10);
    expect(pending).toBeTypeOf('function');
    await thread.close();
    expect(pending!(c.chunks)).toBeUndefined();
    expect(shareOn(thread, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10)).toBeUndefined();
    expect(await thread.start()).toBe(false);
    await thread.close();
  });
});
