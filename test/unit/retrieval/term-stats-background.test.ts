import { afterEach, describe, expect, it } from 'vitest';
import { retrievalDb, type RetrievalDb } from './setup.js';

const open: RetrievalDb[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) {
    await r.chunks.stopBackgroundWork();
    r.close();
  }
});

const meta = (r: RetrievalDb) => r.db.prepare('SELECT chunk_count, min_df FROM chunk_terms_meta WHERE id = 1').get() as { chunk_count: number; min_df: number } | undefined;

describe('term statistics refreshed in the background', () => {
  it('reads the vocabulary in a worker and writes the same statistics as the in-place refresh, without holding the caller', async () => {
    const r = retrievalDb();
    open.push(r);
    const kb = r.addKb('Stats');
    for (let i = 0; i < 30; i++) r.addDocument(kb, `doc-${i}.md`, `Harbour tides and ${i % 3 === 0 ? 'lanterns' : 'ropes'} number ${i}.\n\nThe keeper writes the log.`);
    r.db.prepare('INSERT INTO chunk_terms_meta (id, chunk_count, min_df, refreshed_at) VALUES (1, 0, 2, ?)').run('t0');
    const pending = r.chunks.refreshTermStatsInBackground(0.1, 1);
    // Nothing is written before the worker has read the index: the call returned at once.
    expect(meta(r)).toEqual({ chunk_count: 0, min_df: 2 });
    // One refresh at a time: asking again while it runs joins it.
    expect(r.chunks.refreshTermStatsInBackground(0.1, 1)).toBe(pending);
    expect(await pending).toBe(true);
    const inBackground = r.db.prepare('SELECT term, df FROM chunk_terms ORDER BY term').all();
    expect(meta(r)).toMatchObject({ chunk_count: 60 });
    expect(inBackground).toContainEqual({ term: 'keeper', df: 30 });
    expect(inBackground).toContainEqual({ term: 'lantern', df: 10 });

    r.chunks.refreshTermStats(2);
    expect(r.db.prepare('SELECT term, df FROM chunk_terms ORDER BY term').all()).toEqual(inBackground);
    // Not stale any more: nothing to do.
    expect(await r.chunks.refreshTermStatsInBackground(0.1, 1)).toBe(false);
  });

  it('keeps terms common enough, with their document frequencies, and drops the counts of terms gone', async () => {
    const r = retrievalDb();
    open.push(r);
    const kb = r.addKb('Stats');
    for (let i = 0; i < 10; i++) r.addDocument(kb, `doc-${i}.md`, `Lanterns ${i}.`);
    r.db.prepare('INSERT INTO chunk_terms_meta (id, chunk_count, min_df, refreshed_at) VALUES (1, 0, 5, ?)').run('t0');
    // Counts from before: one out of date, one of a term no chunk holds any more.
    r.db.prepare("INSERT INTO chunk_terms (term, df) VALUES ('lantern', 3), ('zeppelin', 999)").run();
    expect(await r.chunks.refreshTermStatsInBackground(0.1, 1)).toBe(true);
    expect(r.db.prepare('SELECT term, df FROM chunk_terms').all()).toEqual([{ term: 'lantern', df: 10 }]);
  });
});
