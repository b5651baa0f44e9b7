import type { Slots } from '../../repositories/chunks/slots.js';
import { DEFAULT_TERM_STATS_MIN_DF, type TermStatsRefresh } from '../../repositories/chunks/term-stats.js';
import type { PostgresDb } from '../connection.js';

const MAX_CACHED = 50_000;
/** Any number of the same meaning to every Parley: one instance refreshes the term statistics at a time. */
const TERMS_LOCK = 0x70746572; // "pter"

/** A lexeme as a tsquery operand: quoted, so no word is tsquery syntax. */
export const operand = (lexeme: string) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** The refresh, as statements for either connection: every common lexeme's count (ts_stat: a pass over every chunk), replacing the table's in one transaction. */
const REFRESH = [
  'DELETE FROM chunk_terms',
  "INSERT INTO chunk_terms (term, df) SELECT word, ndoc FROM ts_stat('SELECT words FROM chunks') WHERE ndoc >= $1",
  `INSERT INTO chunk_terms_meta (id, chunk_count, min_df, refreshed_at) SELECT 1, coalesce(sum(next_seq), 0), $1, $2 FROM chunk_kbs
   ON CONFLICT (id) DO UPDATE SET chunk_count = excluded.chunk_count, min_df = excluded.min_df, refreshed_at = excluded.refreshed_at`,
] as const;

/**
 * Term statistics on PostgreSQL, as SQLite's (repositories/chunks/term-stats.ts): document
 * frequencies of common lexemes stored in `chunk_terms` and refreshed as the chunks grow by a
 * tenth, rarer ones counted live over the GIN index (a common one not stored yet is remembered
 * until the chunks grow by a tenth). The refresh in the background runs on a connection of its
 * own, so the server's pass over every chunk holds no thread of this process; one instance at a
 * time refreshes (an advisory lock: the others skip).
 */
export function createPostgresTermStats(db: PostgresDb, slots: Pick<Slots, 'insertedTotal'>, now: () => Date) {
  const liveCounts = new Map<string, { df: number; inserted: number }>();
  let refreshing: { done: Promise<boolean>; pid?: number } | undefined;
  let stopped = false;

  const meta = () => db.query<{ chunk_count: number; min_df: number }>('SELECT chunk_count, min_df FROM chunk_terms_meta WHERE id = 1').rows[0];
  const stale = (growth: number, minChunks: number) => {
    const m = meta();
    const since = slots.insertedTotal() - (m?.chunk_count ?? 0);
    return { due: since >= minChunks && (!m || since >= growth * m.chunk_count), minDf: m?.min_df ?? DEFAULT_TERM_STATS_MIN_DF };
  };

  /** Runs the refresh on its own connection; false when another instance holds the lock, or on shutdown. */
  const refreshElsewhere = async (minDf: number): Promise<boolean> => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: db.url, application_name: 'parley-term-stats' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // Its server process, for shutdown to cancel the refresh by.
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      if (refreshing) refreshing.pid = pid;
      await client.query('BEGIN');
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [TERMS_LOCK]);
      if (rows[0]?.ok !== true || stopped) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query(REFRESH[0]);
      await client.query(REFRESH[1], [minDf]);
      await client.query(REFRESH[2], [minDf, now().toISOString()]);
      await client.query('COMMIT');
      liveCounts.clear();
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (stopped) return false;
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const stats = {
    /**
     * In how many chunks a lexeme occurs: stored when common (possibly stale by the chunks added
     * since the last refresh), else counted live over the GIN index — one round trip either way.
     */
    docFreq(term: string): number {
      const cached = liveCounts.get(term);
      if (cached && Math.abs(slots.insertedTotal() - cached.inserted) <= 0.1 * cached.inserted) return cached.df;
      const row = db.query<{ stored: number | null; live: number | null }>(
        `SELECT s.df AS stored, CASE WHEN s.df IS NULL THEN (SELECT count(*) FROM chunks WHERE words @@ $2::tsquery) END AS live
         FROM (SELECT (SELECT df FROM chunk_terms WHERE term = $1) AS df) s`,
        [term, operand(term)],
      ).rows[0];
      if (row?.stored != null) return row.stored;
      const df = row?.live ?? 0;
      if (df < DEFAULT_TERM_STATS_MIN_DF) return df;
      if (liveCounts.size >= MAX_CACHED) liveCounts.clear();
      liveCounts.set(term, { df, inserted: slots.insertedTotal() });
      return df;
    },

    /** Rebuilds `chunk_terms` on this connection (a pass over every chunk: seconds at a million). */
    refreshTermStats(minDf = DEFAULT_TERM_STATS_MIN_DF): TermStatsRefresh {
      const started = performance.now();
      liveCounts.clear();
      return db.transaction(() => {
        db.query(REFRESH[0]);
        const terms = db.query(REFRESH[1], [minDf]).rowCount;
        db.query(REFRESH[2], [minDf, now().toISOString()]);
        return { terms, chunks_inserted: slots.insertedTotal(), ms: performance.now() - started };
      })();
    },

    /** Refreshes once the chunks inserted since the last refresh exceed `growth` of those counted then (and `minChunks`); returns whether it did. */
    refreshTermStatsIfStale(growth = 0.1, minChunks = 5_000): boolean {
      const { due, minDf } = stale(growth, minChunks);
      if (due) stats.refreshTermStats(minDf);
      return due;
    },

    /** {@link refreshTermStatsIfStale} on a connection of its own, not holding this thread; one at a time. Resolves with whether it refreshed. */
    refreshTermStatsInBackground(growth = 0.1, minChunks = 5_000): Promise<boolean> {
      if (refreshing) return refreshing.done;
      if (stopped) return Promise.resolve(false);
      const { due, minDf } = stale(growth, minChunks);
      if (!due) return Promise.resolve(false);
      const job: { done: Promise<boolean>; pid?: number } = { done: Promise.resolve(false) };
      refreshing = job;
      job.done = refreshElsewhere(minDf).finally(() => {
        refreshing = undefined;
      });
      return job.done;
    },

    termStatsSettled: async (): Promise<void> => void (await refreshing?.done.catch(() => false)),

    /** Shutdown: a refresh under way is cancelled (it is done again later), before this connection closes. */
    async stopTermStats(): Promise<void> {
      stopped = true;
      const job = refreshing;
      if (!job) return;
      if (job.pid !== undefined && db.open) db.query('SELECT pg_cancel_backend($1)', [job.pid]);
      await job.done.catch(() => false);
    },
  };
  return stats;
}
