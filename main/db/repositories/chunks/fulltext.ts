import type { Db } from '../../connection.js';
import { searchableId, type Unready } from './unready.js';

export interface ScoredId {
  id: number;
  /** FTS5 bm25(): negative, lower is better. */
  bm25: number;
}

/**
 * Full-text queries over `chunks_fts`. Match expressions come from the retrieval planner, which
 * quotes every term, so none is FTS5 syntax. Only chunks of ready artifacts are found: where a
 * range holds chunks of a file not ready yet (`chunk_unready`, migration 190), the query leaves
 * them out itself, before its cap and its ranking; elsewhere it runs without that test.
 */
export function createFullText(db: Db, unready: Pick<Unready, 'hasUnready'>) {
  // Rowids reach FTS5 as BigInt: better-sqlite3 binds numbers as REAL, and FTS5 ignores a
  // `rowid = ?` constraint whose value is REAL (every match comes back), so integers it is.
  // The inner query visits at most `cap` matches (newest first) and scores only those;
  // the outer one keeps the best. FTS5 consumes the rowid range and the rowid order itself.
  const rankSql = (filter: string) =>
    `SELECT id, bm25 FROM (
       SELECT rowid AS id, bm25(chunks_fts) AS bm25 FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?${filter} ORDER BY rowid DESC LIMIT ?
     ) ORDER BY bm25 LIMIT ?`;
  const matchSql = (filter: string) => `SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?${filter} ORDER BY rowid DESC LIMIT ?`;
  const onlyReady = ` AND ${searchableId('chunks_fts.rowid')}`;
  const rank = db.prepare<[string, bigint, bigint, number, number], ScoredId>(rankSql(''));
  const rankReady = db.prepare<[string, bigint, bigint, number, number], ScoredId>(rankSql(onlyReady));
  const matchIds = db.prepare<[string, bigint, bigint, number], { id: number }>(matchSql(''));
  const matchReadyIds = db.prepare<[string, bigint, bigint, number], { id: number }>(matchSql(onlyReady));
  const presentAmong = db.prepare<[string, string], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
  );

  return {
    /** Merges the keyword index into one segment: after bulk loads, for the fastest queries. */
    optimize: () => void db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run(),

    /** bm25 top `limit` among at most `cap` matches of `match` in [lo, hi] (newest first), chunks of ready artifacts only. */
    rank: (match: string, lo: number, hi: number, cap: number, limit: number): ScoredId[] =>
      (unready.hasUnready(lo, hi) ? rankReady : rank).all(match, BigInt(lo), BigInt(hi), cap, limit),

    /** Matching ids in [lo, hi], newest first, without scoring; chunks of ready artifacts only. */
    matchIds: (match: string, lo: number, hi: number, limit: number): number[] =>
      (unready.hasUnready(lo, hi) ? matchReadyIds : matchIds).all(match, BigInt(lo), BigInt(hi), limit).map((r) => r.id),

    /** Which of `ids` hold `match`: one rowid probe each, no scoring (the ids come from rank, so are searchable). */
    presentAmong: (match: string, ids: readonly number[]): number[] => presentAmong.all(match, JSON.stringify(ids)).map((r) => r.id),
  };
}
