import { hasRankingExtension, type Db } from '../../connection.js';
import type { Statement } from 'better-sqlite3';
import { searchableId, type Unready } from './unready.js';

/** A chunk's text and its length in index tokens (what bm25 calls D). */
export interface ChunkTokens {
  id: number;
  text: string;
  tokens: number;
}

/** SQLite's varint (FTS5 writes its sizes and totals in it): the value and the offset after it. */
function varint(buf: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9 && at + i < buf.length; i++) {
    const byte = buf[at + i]!;
    if (i === 8) return [value * 256 + byte, at + 9];
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  return [value, buf.length];
}

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
  // the outer one keeps the best (equal scores: newest first, so that a query split in halves and
  // merged keeps the same ones as the whole, see `rankResults` in main/search/keyword/rescore.ts). FTS5 consumes the rowid range and the rowid order itself.
  // With the ranking extension, the document frequencies of the query's terms are given
  // (`parley_bm25`, native/parley-fts.c) instead of counted by FTS5 over the whole index once a query.
  const rankSql = (filter: string, score: string) =>
    `SELECT id, bm25 FROM (
       SELECT rowid AS id, ${score} AS bm25 FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?${filter} ORDER BY rowid DESC LIMIT ?
     ) ORDER BY bm25, id DESC LIMIT ?`;
  const matchSql = (filter: string) => `SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ?${filter} ORDER BY rowid DESC LIMIT ?`;
  const onlyReady = ` AND ${searchableId('chunks_fts.rowid')}`;
  const rank = db.prepare<[string, bigint, bigint, number, number], ScoredId>(rankSql('', 'bm25(chunks_fts)'));
  const rankReady = db.prepare<[string, bigint, bigint, number, number], ScoredId>(rankSql(onlyReady, 'bm25(chunks_fts)'));
  const weighted = hasRankingExtension(db);
  // One statement per number of terms and per filter, made at first use.
  const withDf = new Map<string, Statement<(string | number | bigint)[], ScoredId>>();
  const rankWithDf = (filter: string, terms: number) => {
    const key = `${terms}${filter}`;
    let statement = withDf.get(key);
    if (!statement) withDf.set(key, (statement = db.prepare(rankSql(filter, `parley_bm25(chunks_fts${', ?'.repeat(terms)})`))));
    return statement;
  };
  const matchIds = db.prepare<[string, bigint, bigint, number], { id: number }>(matchSql(''));
  const matchReadyIds = db.prepare<[string, bigint, bigint, number], { id: number }>(matchSql(onlyReady));

  const tokensOf = db.prepare<[string], { id: number; text: string; sz: Uint8Array | null }>(
    // The text the index read: a chunk's stored words (migration 220) where its script is written without spaces.
    `SELECT c.id, coalesce(w.words, c.text) AS text, d.sz FROM chunks c LEFT JOIN chunk_words w ON w.id = c.id LEFT JOIN chunks_fts_docsize d ON d.id = c.id WHERE c.id IN (SELECT value FROM json_each(?))`,
  );
  // FTS5's "averages" record (rowid 1 of its data table): rows, then tokens per column.
  const averages = db.prepare<[], { block: Uint8Array }>('SELECT block FROM chunks_fts_data WHERE id = 1');

  return {
    /** Merges the keyword index into one segment: after bulk loads, for the fastest queries. */
    optimize: () => void db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run(),

    /** Whether {@link rank} takes its terms' document frequencies as given (the ranking extension is loaded) rather than have FTS5 count them. */
    dfGiven: weighted,

    /**
     * bm25 top `limit` among at most `cap` matches of `match` in [lo, hi] (newest first), chunks of
     * ready artifacts only. `dfs` are the document frequencies of the match's terms (phrases), in
     * their order in it, for their IDFs: used where the ranking extension is loaded; FTS5 counts them otherwise.
     */
    rank: (match: string, lo: number, hi: number, cap: number, limit: number, dfs: readonly number[]): ScoredId[] => {
      const filter = unready.hasUnready(lo, hi) ? onlyReady : '';
      if (weighted && dfs.length > 0) return rankWithDf(filter, dfs.length).all(...dfs, match, BigInt(lo), BigInt(hi), cap, limit);
      return (filter ? rankReady : rank).all(match, BigInt(lo), BigInt(hi), cap, limit);
    },

    /** Matching ids in [lo, hi], newest first, without scoring; chunks of ready artifacts only. */
    matchIds: (match: string, lo: number, hi: number, limit: number): number[] =>
      (unready.hasUnready(lo, hi) ? matchReadyIds : matchIds).all(match, BigInt(lo), BigInt(hi), limit).map((r) => r.id),

    /** The text as the index read it and the token count of each of `ids` that exists (any order): what bm25 needs of a chunk besides its terms. */
    chunkTokens: (ids: readonly number[]): ChunkTokens[] =>
      tokensOf.all(JSON.stringify(ids)).map((r) => ({ id: r.id, text: r.text, tokens: r.sz ? varint(r.sz, 0)[0] : 0 })),

    /** What bm25 averages over, as FTS5 keeps it: rows indexed and their tokens in all. */
    indexTotals: (): { rows: number; tokens: number } => {
      const block = averages.get()?.block;
      if (!block) return { rows: 0, tokens: 0 };
      const [rows, at] = varint(block, 0);
      return { rows, tokens: varint(block, at)[0] };
    },
  };
}
