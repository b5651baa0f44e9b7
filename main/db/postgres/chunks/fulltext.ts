import type { ChunkTokens, ScoredId } from '../../repositories/chunks/fulltext.js';
import { searchableId, type Unready } from '../../repositories/chunks/unready.js';
import type { PostgresDb } from '../connection.js';
import { operand } from './term-stats.js';

/** bm25's parameters, FTS5's: the same ranking as on SQLite. */
const K1 = 1.2;
const B = 0.75;
const MAX_CACHED = 50_000;

/** FTS5's IDF: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6 (main/search/keyword/plan.ts bm25Idf). */
const idfOf = (rows: number, df: number) => Math.max(1e-6, Math.log((rows - df + 0.5) / (df + 0.5)));

/** A word no chunk can hold (what a word of separators only stands for: the planner never asks with one). */
const NOTHING = operand('\u0001');

/**
 * The words of an FTS5 match expression as the keyword planner writes them (main/search/keyword/
 * plan.ts: quoted words joined by OR / AND, in parentheses), in order, and the expression with
 * each word's index in place of it.
 */
function parseMatch(match: string): { words: string[]; parts: Array<string | number> } {
  const words: string[] = [];
  const parts: Array<string | number> = [];
  const re = /"((?:[^"]|"")*)"|OR\b|AND\b|\(|\)|\s+/y;
  while (re.lastIndex < match.length) {
    const m = re.exec(match);
    if (!m) throw new Error(`Not a keyword match expression: ${match}`);
    if (m[1] !== undefined) parts.push(words.push(m[1].replaceAll('""', '"')) - 1);
    else if (m[0] === 'OR') parts.push(' | ');
    else if (m[0] === 'AND') parts.push(' & ');
    else if (m[0] === '(' || m[0] === ')') parts.push(m[0]);
  }
  return { words, parts };
}

/**
 * Keyword search on PostgreSQL: what main/search's keyword planner reads of the chunks (the same
 * functions as SQLite's fulltext.ts; term statistics: ./term-stats.ts), over `chunks.words` — a tsvector of the
 * chunk's words (shared/words.ts indexedText) with the baseline's `parley` configuration ('simple'
 * stemmed in English, as FTS5's porter tokenizer stems every word), GIN-indexed. The
 * planner's match expressions become tsqueries over its lexemes, and the matches are ranked by
 * FTS5's bm25 formula in SQL (each term's frequency read from the tsvector, the chunk's length
 * from `chunks.tokens`, the averages from `chunk_kbs`' totals, kept by the baseline's triggers),
 * with the document frequencies the planner gives: the rankings of SQLite's ranking extension.
 */
export function createPostgresFullText(db: PostgresDb, unready: Pick<Unready, 'hasUnready'>, docFreq: (term: string) => number) {
  /** Words already turned into lexemes: the configuration is the same for every connection. */
  const lexemesOf = new Map<string, string[]>();

  const stems = (words: readonly string[]): string[][] => {
    const unknown = [...new Set(words.filter((word) => !lexemesOf.has(word)))];
    if (unknown.length > 0) {
      const rows = db.query<{ i: number; lexemes: string[] }>(
        `SELECT t.i, coalesce((SELECT array_agg(u.lexeme ORDER BY u.positions[1]) FROM unnest(to_tsvector('parley', parley_fold(t.w))) u), '{}') AS lexemes
         FROM unnest($1::text[]) WITH ORDINALITY AS t(w, i)`,
        [unknown],
      ).rows;
      if (lexemesOf.size + unknown.length > MAX_CACHED) lexemesOf.clear();
      for (const row of rows) lexemesOf.set(unknown[row.i - 1]!, row.lexemes);
    }
    return words.map((word) => lexemesOf.get(word) ?? []);
  };

  const indexTotals = (): { rows: number; tokens: number } => {
    const row = db.query<{ rows: number; tokens: number }>('SELECT coalesce(sum(chunk_rows), 0) AS rows, coalesce(sum(chunk_tokens), 0) AS tokens FROM chunk_kbs').rows[0];
    return { rows: row?.rows ?? 0, tokens: row?.tokens ?? 0 };
  };

  /** The expression as a tsquery, and each word's lexemes. */
  const tsquery = (match: string) => {
    const { words, parts } = parseMatch(match);
    const lexemes = stems(words);
    const text = parts
      .map((part) => {
        if (typeof part === 'string') return part;
        const of = lexemes[part]!;
        return of.length === 0 ? NOTHING : of.length === 1 ? operand(of[0]!) : `(${of.map(operand).join(' <-> ')})`;
      })
      .join('');
    return { text, lexemes };
  };

  const filterOf = (lo: number, hi: number) => (unready.hasUnready(lo, hi) ? ` AND ${searchableId('chunks.id')}` : '');

  return {
    /** Nothing to merge: GIN's pending list is PostgreSQL's to flush (autovacuum). */
    optimize: (): undefined => undefined,

    /** The planner gives every term's document frequency: nothing is counted per query, as with SQLite's ranking extension. */
    dfGiven: true,

    /**
     * bm25 top `limit` among at most `cap` matches of `match` in [lo, hi] (newest first), chunks
     * of ready artifacts only; `dfs` the match's words' document frequencies, in order (counted
     * here when not given).
     */
    rank(match: string, lo: number, hi: number, cap: number, limit: number, dfs: readonly number[]): ScoredId[] {
      const { text, lexemes } = tsquery(match);
      const totals = indexTotals();
      const average = totals.rows > 0 && totals.tokens > 0 ? totals.tokens / totals.rows : 1;
      const terms: string[] = [];
      const idfs: number[] = [];
      lexemes.forEach((of, i) => {
        for (const lexeme of of) {
          terms.push(lexeme);
          idfs.push(idfOf(totals.rows, dfs[i] ?? docFreq(lexeme)));
        }
      });
      // Each match scored where it is read: its tsvector narrowed to the query's lexemes (weighted A,
      // then only A kept: both C functions, no row per word of the chunk), their frequencies summed.
      return db.query<ScoredId>(
        `SELECT id, bm25 FROM (
           SELECT id, -coalesce((SELECT sum(t.idf * t.tf * ${K1 + 1} / (t.tf + ${K1} * (${1 - B} + ${B} * tokens / $5::float8)))
                        FROM (SELECT ($7::float8[])[array_position($6::text[], u.lexeme)] AS idf, cardinality(u.positions) AS tf
                              FROM unnest(ts_filter(setweight(words, 'A', $6::text[]), '{a}')) u) t), 0) AS bm25
           FROM chunks WHERE words @@ $1::tsquery AND id BETWEEN $2 AND $3${filterOf(lo, hi)} ORDER BY id DESC LIMIT $4
         ) scored ORDER BY bm25, id DESC LIMIT $8`,
        [text, lo, hi, cap, average, terms, idfs, limit],
      ).rows;
    },

    /** Matching ids in [lo, hi], newest first, without scoring; chunks of ready artifacts only. */
    matchIds: (match: string, lo: number, hi: number, limit: number): number[] =>
      db
        .query<{ id: number }>(`SELECT id FROM chunks WHERE words @@ $1::tsquery AND id BETWEEN $2 AND $3${filterOf(lo, hi)} ORDER BY id DESC LIMIT $4`, [tsquery(match).text, lo, hi, limit])
        .rows.map((r) => r.id),

    /** The text as the index read it and its length in words, for each of `ids` that exists. */
    chunkTokens: (ids: readonly number[]): ChunkTokens[] =>
      db.query<ChunkTokens>('SELECT c.id, coalesce(w.words, c.text) AS text, c.tokens FROM chunks c LEFT JOIN chunk_words w ON w.id = c.id WHERE c.id = ANY($1::bigint[])', [[...ids]]).rows,

    /** What bm25 averages over: chunks held and their words in all. */
    indexTotals,

    /** The index's lexemes for each word (the word lowercased and stemmed, nearly always one). */
    stems,
  };
}
