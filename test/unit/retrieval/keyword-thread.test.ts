import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexEmbeddings, searchHybrid } from '../../../main/core/retrieval/search.js';
import { keywordRanking } from '../../../main/core/retrieval/keyword.js';
import { KeywordThread } from '../../../main/core/retrieval/keyword-thread.js';
import { DOCUMENTS } from '../../fixtures/corpus/documents.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { corpusDb, type RetrievalDb } from './setup.js';

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
    for (const text of QUESTIONS) {
      expect(thread.rank(c.chunks.kbRanges([c.kb]), text, 30)?.()).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), text, 30, {}));
      const query = { kb_ids: [c.kb], text, limit: 8 };
      expect(await searchHybrid(c, query, embed, { keywords: thread })).toEqual(await searchHybrid(c, query, embed));
    }
    // Every ranking above came from the worker: none was ranked in place.
    expect(thread.served).toBe(QUESTIONS.length * 2);
    // Options reach it (a caller's log function, which no thread can receive, does not).
    const narrow = thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 30, { maxTerms: 1, log: () => {} } as never)?.();
    expect(narrow).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 30, { maxTerms: 1 }));
    expect(narrow!.plan.select).toHaveLength(1);
  });

  it('reads what the app has committed since it started', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    const text = 'Which lighthouse keeper logged the zeppelin?';
    expect(thread.rank(c.chunks.kbRanges([c.kb]), text, 10)?.()?.ranked).toEqual([]);
    c.addDocument(c.kb, 'logs/keeper.md', 'The lighthouse keeper logged a zeppelin over the harbour at dawn.');
    const ranked = thread.rank(c.chunks.kbRanges([c.kb]), text, 10)!()!.ranked;
    expect(ranked).toHaveLength(1);
    expect(c.chunks.hit(ranked[0]!.id)?.artifact_key).toBe('logs/keeper.md');
  });

  it('leaves the ranking to the caller while it starts and while it ranks another question', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    // The first ask starts the worker and is answered in place.
    expect(thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10)).toBeUndefined();
    expect(await thread.start()).toBe(true);
    const first = thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10);
    expect(first).toBeTypeOf('function');
    // Held until its answer is taken: a second search at the same time ranks on its own thread, using the other core.
    expect(thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10)).toBeUndefined();
    expect(first!()).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10, {}));
    // An answer is taken once.
    expect(first!()).toBeUndefined();
    expect(thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10)?.()).toEqual(keywordRanking(c.chunks, c.chunks.kbRanges([c.kb]), QUESTIONS[1]!, 10, {}));
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
    expect(thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 5)).toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it('a ranking that fails in the worker is said once and left to the caller; the worker goes on', async () => {
    const c = track(corpusDb());
    const lines: string[] = [];
    const thread = threadOn(c.db.name, (line) => lines.push(line));
    expect(await thread.start()).toBe(true);
    // A range no id can bound: FTS5's rowid arguments cannot be made of it, so the worker's ranking throws.
    const broken = [{ ...c.chunks.kbRanges([c.kb])[0]!, lo: Number.NaN }];
    expect(thread.rank(broken, QUESTIONS[0]!, 10)!()).toBeUndefined();
    expect(thread.rank(broken, QUESTIONS[1]!, 10)!()).toBeUndefined();
    expect(lines).toEqual([expect.stringMatching(/keyword ranking failed in its thread \(.+\): ranked on the main thread instead/)]);
    const ranges = c.chunks.kbRanges([c.kb]);
    expect(thread.rank(ranges, QUESTIONS[0]!, 10)?.()).toEqual(keywordRanking(c.chunks, ranges, QUESTIONS[0]!, 10, {}));
    expect(thread.served).toBe(1);
  });

  it('answers what it was asked with nothing once closed, and is not asked again', async () => {
    const c = track(corpusDb());
    const thread = threadOn(c.db.name);
    expect(await thread.start()).toBe(true);
    const pending = thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10);
    expect(pending).toBeTypeOf('function');
    await thread.close();
    expect(pending!()).toBeUndefined();
    expect(thread.rank(c.chunks.kbRanges([c.kb]), QUESTIONS[0]!, 10)).toBeUndefined();
    expect(await thread.start()).toBe(false);
    await thread.close();
  });
});
