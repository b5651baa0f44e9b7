import type { Db } from '../../connection.js';

export interface ScoredId {
  id: number;
  /** FTS5 bm25(): negative, lower is better. */
  bm25: number;
}

/**
 * Full-text queries over `chunks_fts`. Match expressions come from the retrieval planner, which
 * quotes every term, so none is FTS5 syntax.
 */
export function createFullText(db: Db) {
  // Rowids reach FTS5 as BigInt: better-sqlite3 binds numbers as REAL, and FTS5 ignores a
  // `rowid = ?` constraint whose value is REAL (every match comes back), so integers it is.
  // The inner query visits at most `cap` matches (newest first) and scores only those;
  // the outer one keeps the best. FTS5 consumes the rowid range and the rowid order itself.
  const rank = db.prepare<[string, bigint, bigint, number, number], ScoredId>(
    `SELECT id, bm25 FROM (
       SELECT rowid AS id, bm25(chunks_fts) AS bm25 FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ?
     ) ORDER BY bm25 LIMIT ?`,
  );
  const matchIds = db.prepare<[string, bigint, bigint, number], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ?',
  );
  const presentAmong = db.prepare<[string, string], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
  );

  return {
    /** Merges the keyword index into one segment: after bulk loads, for the fastest queries. */
    optimize: () => void db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run(),

    /** bm25 top `limit` among at most `cap` matches of `match` in [lo, hi] (newest first). */
    rank: (match: string, lo: number, hi: number, cap: number, limit: number): ScoredId[] => rank.all(match, BigInt(lo), BigInt(hi), cap, limit),

    /** Matching ids in [lo, hi], newest first, without scoring. */
    matchIds: (match: string, lo: number, hi: number, limit: number): number[] => matchIds.all(match, BigInt(lo), BigInt(hi), limit).map((r) => r.id),

    /** Which of `ids` hold `match`: one rowid probe each, no scoring. */
    presentAmong: (match: string, ids: readonly number[]): number[] => presentAmong.all(match, JSON.stringify(ids)).map((r) => r.id),
  };
}
