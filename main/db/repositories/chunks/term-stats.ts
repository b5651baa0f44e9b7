import type { Statement } from 'better-sqlite3';
import type { Db } from '../../connection.js';
import type { Slots } from './slots.js';
import { runInBackground } from './background.js';

/** Terms in at least this many chunks are kept in `chunk_terms`; rarer ones are counted live. */
export const DEFAULT_TERM_STATS_MIN_DF = 200;

export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** Words already stemmed, by any connection: the tokenizer is the same everywhere. */
const STEMS = new Map<string, string[]>();
const MAX_CACHED = 50_000;
/** Terms written per transaction by the background refresh. */
const TERM_WRITE_BATCH = 2_000;

export interface TermStatsRefresh {
  terms: number;
  chunks_inserted: number;
  ms: number;
}

/** Term statistics: the index's stems for a word, and document frequencies (stored or counted live). */
export function createTermStats(db: Db, slots: Slots, now: () => Date, background: { nativeBinding?: string | undefined; signal?: AbortSignal } = {}) {
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

  // A per-connection scratch FTS5 table with the index's tokenizer: the only exact way to know
  // which (stemmed) terms the index holds for a word of a question.
  let stemmer: { clear: Statement; insert: Statement<[number, string]>; read: Statement<[], { term: string; doc: number }> } | undefined;
  const stemStatements = () => {
    if (!stemmer) {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer USING fts5(word, tokenize = '${FTS_TOKENIZER}');
               CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer_terms USING fts5vocab(parley_stemmer, 'instance');`);
      stemmer = {
        clear: db.prepare('DELETE FROM temp.parley_stemmer'),
        insert: db.prepare('INSERT INTO temp.parley_stemmer (rowid, word) VALUES (?, ?)'),
        read: db.prepare('SELECT term, doc FROM temp.parley_stemmer_terms ORDER BY doc, "offset"'),
      };
    }
    return stemmer;
  };

  const stats = {
    /**
     * The index's terms for each word (FTS5's own tokenizer and stemmer, so exactly what the
     * index holds): usually one per word, none for a word of separators only.
     */
    stems(words: readonly string[]): string[][] {
      const out: string[][] = words.map((word) => STEMS.get(word) ?? []);
      const unknown = words.map((word, i) => [word, i] as const).filter(([word]) => !STEMS.has(word));
      if (unknown.length === 0) return out;
      const s = stemStatements();
      db.transaction(() => {
        s.clear.run();
        for (const [word, i] of unknown) s.insert.run(i, word);
        for (const row of s.read.all()) out[row.doc]?.push(row.term);
        s.clear.run();
      })();
      if (STEMS.size + unknown.length > MAX_CACHED) STEMS.clear();
      for (const [word, i] of unknown) STEMS.set(word, out[i] ?? []);
      return out;
    },

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
     * read in a worker thread on its own connection (the seconds-long part at a million chunks),
     * and only the result is written here, in one short transaction. One refresh at a time; an
     * in-memory database is refreshed in place. Resolves with whether it refreshed.
     */
    refreshTermStatsInBackground(growth = 0.1, minChunks = 5_000): Promise<boolean> {
      if (refreshing) return refreshing;
      const meta = statsMeta.get();
      const since = slots.insertedTotal() - (meta?.chunk_count ?? 0);
      if (since < minChunks || (meta && since < growth * meta.chunk_count)) return Promise.resolve(false);
      if (!file) return Promise.resolve(stats.refreshTermStatsIfStale(growth, minChunks));
      const minDf = meta?.min_df ?? DEFAULT_TERM_STATS_MIN_DF;
      refreshing = (async () => {
        const result = await runInBackground({ kind: 'term-stats', dbFile: file, nativeBinding: background.nativeBinding, minDf }, background.signal);
        if (background.signal?.aborted || !db.open) return false;
        // A worker that cannot run here (an addon built for another runtime): refreshed in place, as before.
        if (!result.ok || result.kind !== 'term-stats') return stats.refreshTermStatsIfStale(growth, minChunks);
        // Written in batches with a turn of the event loop between them (50k terms at a million
        // chunks took 0.76 s in one transaction under load): each term's count is replaced in
        // place, so a search meanwhile sees old or new counts, never a term missing.
        const fresh = new Set<string>();
        for (let i = 0; i < result.terms.length; i += TERM_WRITE_BATCH) {
          if (background.signal?.aborted || !db.open) return false;
          const batch = result.terms.slice(i, i + TERM_WRITE_BATCH);
          db.transaction(() => {
            for (const [term, df] of batch) {
              upsertTerm.run(term, df);
              fresh.add(term);
            }
          })();
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
        if (background.signal?.aborted || !db.open) return false;
        const stale = termList.all().filter((term) => !fresh.has(term));
        db.transaction(() => {
          for (const term of stale) deleteTerm.run(term);
          writeMeta.run(result.chunksInserted, minDf, now().toISOString());
        })();
        liveCounts.clear();
        return true;
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
