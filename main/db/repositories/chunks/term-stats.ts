import type { Statement } from 'better-sqlite3';
import type { Db } from '../../connection.js';
import type { Slots } from './slots.js';
import type { TermSnapshotReader } from './index-port.js';
import { createStemmer, FTS_TOKENIZER } from './stemmer.js';

/** Terms in at least this many chunks are kept in `chunk_terms`; rarer ones are counted live. */
export const DEFAULT_TERM_STATS_MIN_DF = 200;

export { FTS_TOKENIZER };

const MAX_CACHED = 50_000;
/** Terms written per transaction by the background refresh. */
const TERM_WRITE_BATCH = 2_000;

export interface TermStatsRefresh {
  terms: number;
  chunks_inserted: number;
  ms: number;
}

/**
 * Writes a refresh read off the main thread, in batches with a turn of the event loop between
 * them (50k terms at a million chunks took 0.76 s in one transaction under load): each term's
 * count is replaced in place, so a search meanwhile sees old or new counts, never a term missing.
 * Terms no longer counted go last, with `finish` (the meta), in one transaction. Returns false
 * when `stopped` (shutdown) came first.
 */
async function writeTermSnapshot(
  db: Db,
  s: { upsertTerm: Statement<[string, number]>; deleteTerm: Statement<[string]>; termList: Statement<[], string> },
  stopped: () => boolean,
  terms: ReadonlyArray<[string, number]>,
  finish: () => void,
): Promise<boolean> {
  const fresh = new Set<string>();
  for (let i = 0; i < terms.length; i += TERM_WRITE_BATCH) {
    if (stopped()) return false;
    const batch = terms.slice(i, i + TERM_WRITE_BATCH);
    db.transaction(() => {
      for (const [term, df] of batch) {
        s.upsertTerm.run(term, df);
        fresh.add(term);
      }
    })();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (stopped()) return false;
  const stale = s.termList.all().filter((term) => !fresh.has(term));
  db.transaction(() => {
    for (const term of stale) s.deleteTerm.run(term);
    finish();
  })();
  return true;
}

/** Term statistics: the index's stems for a word, and document frequencies (stored or counted live). */
export function createTermStats(db: Db, slots: Slots, now: () => Date, background: { termSnapshot?: TermSnapshotReader | undefined; signal?: AbortSignal } = {}) {
  const file = db.name && db.name !== ':memory:' && !db.memory ? db.name : undefined;
  let refreshing: Promise<boolean> | undefined;
  const termDf = db.prepare<[string], { df: number }>('SELECT df FROM chunk_terms WHERE term = ?');
  const liveDf = db.prepare<[string], { doc: number }>('SELECT doc FROM chunks_vocab WHERE term = ?');
  const liveCounts = new Map<string, { df: number; inserted: number }>();
  const statsMeta = db.prepare<[], { chunk_count: number; min_df: number }>('SELECT chunk_count, min_df FROM chunk_terms_meta WHERE id = 1');
  const upsertTerm = db.prepare<[string, number]>('INSERT INTO chunk_terms (term, df) VALUES (?, ?) ON CONFLICT (term) DO UPDATE SET df = excluded.df');
  const deleteTerm = db.prepare<[string]>('DELETE FROM chunk_terms WHERE term = ?');
  const termList = db.prepare<[], string>('SELECT term FROM chunk_terms').pluck();
  const writeMeta = db.prepare<[number, number, string]>(
    `INSERT INTO chunk_terms_meta (id, chunk_count, min_df, refreshed_at) VALUES (1, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET chunk_count = excluded.chunk_count, min_df = excluded.min_df, refreshed_at = excluded.refreshed_at`,
  );

  const stems = createStemmer(db);

  const stopped = () => background.signal?.aborted === true || !db.open;
  const writeTerms = (terms: ReadonlyArray<[string, number]>, chunksInserted: number, minDf: number) =>
    writeTermSnapshot(db, { upsertTerm, deleteTerm, termList }, stopped, terms, () => {
      writeMeta.run(chunksInserted, minDf, now().toISOString());
      liveCounts.clear();
    });

  const stats = {
    /**
     * The index's terms for each word (FTS5's own tokenizer and stemmer, so exactly what the
     * index holds): usually one per word, none for a word of separators only.
     */
    /** The index's terms for each word (stemmer.ts). */
    stems,

    /**
     * In how many chunks a stemmed term occurs: from `chunk_terms` when it is there (possibly
     * stale by the chunks added since the last refresh), else counted live from the index, which
     * costs time in proportion to the answer and is small for terms the table does not hold.
     */
    docFreq(term: string): number {
      const stored = termDf.get(term);
      if (stored) return stored.df;
      // Counted live: a common term that the statistics miss (never refreshed, or new since) is
      // remembered until the corpus has grown or shrunk by a tenth, so it is counted once, not per
      // question. A rarer one costs little to count and is counted each time: remembered, a word
      // no chunk held yet would stay unsearchable after the first file holding it was added.
      const inserted = slots.insertedTotal();
      const cached = liveCounts.get(term);
      if (cached && Math.abs(inserted - cached.inserted) <= 0.1 * cached.inserted) return cached.df;
      const df = liveDf.get(term)?.doc ?? 0;
      if (df < DEFAULT_TERM_STATS_MIN_DF) return df;
      if (liveCounts.size >= MAX_CACHED) liveCounts.clear();
      liveCounts.set(term, { df, inserted });
      return df;
    },

    /** Rebuilds `chunk_terms` from the index's vocabulary (a full pass over the index: seconds at 1M chunks). */
    refreshTermStats(minDf = DEFAULT_TERM_STATS_MIN_DF): TermStatsRefresh {
      const started = performance.now();
      liveCounts.clear();
      return db.transaction(() => {
        db.prepare('DELETE FROM chunk_terms').run();
        const terms = db.prepare('INSERT INTO chunk_terms (term, df) SELECT term, doc FROM chunks_vocab WHERE doc >= ?').run(minDf).changes;
        const inserted = slots.insertedTotal();
        writeMeta.run(inserted, minDf, now().toISOString());
        return { terms, chunks_inserted: inserted, ms: performance.now() - started };
      })();
    },

    /** Resolves once no background refresh runs. */
    termStatsSettled: async (): Promise<void> => void (await refreshing),

    /**
     * {@link refreshTermStatsIfStale} without holding the main thread: the index's vocabulary is
     * read off the main thread (main/search's worker thread on its own connection, where it is
     * plugged in: the seconds-long part at a million chunks), and only the result is written here,
     * in short transactions. One refresh at a time; an in-memory database, or one with no reader
     * plugged in, is refreshed in place. Resolves with whether it refreshed.
     */
    refreshTermStatsInBackground(growth = 0.1, minChunks = 5_000): Promise<boolean> {
      if (refreshing) return refreshing;
      const meta = statsMeta.get();
      const since = slots.insertedTotal() - (meta?.chunk_count ?? 0);
      if (since < minChunks || (meta && since < growth * meta.chunk_count)) return Promise.resolve(false);
      const read = background.termSnapshot;
      if (!file || !read) return Promise.resolve(stats.refreshTermStatsIfStale(growth, minChunks));
      const minDf = meta?.min_df ?? DEFAULT_TERM_STATS_MIN_DF;
      refreshing = (async () => {
        const result = await read(file, minDf, background.signal);
        if (background.signal?.aborted || !db.open) return false;
        // A worker that cannot run here (an addon built for another runtime): refreshed in place, as before.
        if (!result.ok) return stats.refreshTermStatsIfStale(growth, minChunks);
        return writeTerms(result.terms, result.chunksInserted, minDf);
      })().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },

    /**
     * Refreshes term statistics once the chunks inserted since the last refresh exceed `growth`
     * of those counted then (and at least `minChunks`): meant for the ingest job, after an
     * artifact is ready. Returns whether it refreshed.
     */
    refreshTermStatsIfStale(growth = 0.1, minChunks = 5_000): boolean {
      const meta = statsMeta.get();
      const inserted = slots.insertedTotal();
      const since = inserted - (meta?.chunk_count ?? 0);
      if (since < minChunks || (meta && since < growth * meta.chunk_count)) return false;
      stats.refreshTermStats(meta?.min_df);
      return true;
    },
  };
  return stats;
}
