/**
 * The retrieval bench's keyword rows on PostgreSQL (issue #33): the same generated corpus, built
 * through the same repository calls into the PostgreSQL chunks repository
 * (main/db/postgres/chunks.ts), the same questions timed end to end with `searchKeyword` — every
 * query on the caller's connection, as the app runs there (no keyword thread) — and each top 10
 * compared with SQLite's for the same question (both rank by FTS5's bm25 formula).
 *
 * On a server the bench was given (`PARLEY_BENCH_POSTGRES_URL=postgres://…`) the corpus is kept as
 * database `parley_bench_retrieval_g<version>_<size>` and reused, its build times in the database's
 * comment; it is built under a `_partial` name and renamed once complete, so an interrupted build
 * is never reused. After loading: `VACUUM ANALYZE chunks` (GIN's pending list merged and the
 * planner's statistics made, as autovacuum would) and term statistics refreshed.
 */
import { PostgresDb } from '../../main/db/postgres/connection.js';
import { createPostgresChunkStore } from '../../main/db/postgres/chunks.js';
import { migratePostgres } from '../../main/db/postgres/migrations/index.js';
import type { SqlDb } from '../../main/db/sql.js';
import type { ChunksRepo } from '../../main/search/chunks.js';
import { searchKeyword } from '../../main/search/index.js';
import { psqlSync } from '../support/postgres-psql.js';
import { createDatabase, databaseExists, databaseUrl, dropDatabase, type BenchPostgres } from './postgres.js';
import type { Question, RetrievalBenchRow } from './retrieval.js';
import { summarize } from './stats.js';

export interface PostgresKeywordOptions {
  server: BenchPostgres;
  /** The database's name on the server (the corpus' generator version and size in it). */
  name: string;
  size: number;
  /** Fills an empty, migrated database with the corpus (retrieval.ts's build). */
  build: (db: SqlDb, chunks: ChunksRepo) => void;
  warmup: Question[];
  timed: Question[];
  /** SQLite's top 10 chunk ids for each timed question, in order. */
  sqliteTops: number[][];
  log: (line: string) => void;
}

interface BuildTimes {
  buildMs?: number;
  optimizeMs?: number;
}

/** The corpus' database on the server: reused when complete, else built (see the file's comment). */
function corpusDatabase(options: PostgresKeywordOptions): { url: string } & BuildTimes {
  const { server, name, size, log } = options;
  if (server.persistent && databaseExists(server.url, name)) {
    log(`retrieval bench: ${size.toLocaleString('en')} chunks on PostgreSQL from database ${name}`);
    const comment = psqlSync(server.url, `SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '${name}'`).trim();
    return { url: databaseUrl(server.url, name), ...(comment ? (JSON.parse(comment) as BuildTimes) : {}) };
  }
  const partial = `${name}_partial`;
  dropDatabase(server.url, partial);
  const { url } = createDatabase(server.url, partial);
  const db = new PostgresDb(url, 'parley-bench');
  let times: BuildTimes;
  try {
    migratePostgres(db);
    const chunks = createPostgresChunkStore(db);
    log(`retrieval bench: building ${size.toLocaleString('en')} chunks on PostgreSQL…`);
    let started = performance.now();
    options.build(db, chunks);
    const buildMs = performance.now() - started;
    started = performance.now();
    db.query('VACUUM ANALYZE chunks');
    chunks.refreshTermStats();
    times = { buildMs, optimizeMs: performance.now() - started };
    log(`  built in ${(buildMs / 1000).toFixed(1)} s, vacuumed + term statistics in ${(times.optimizeMs! / 1000).toFixed(1)} s`);
  } finally {
    db.close();
  }
  psqlSync(server.url, `ALTER DATABASE ${partial} RENAME TO ${name}`);
  psqlSync(server.url, `COMMENT ON DATABASE ${name} IS '${JSON.stringify(times)}'`);
  return { url: databaseUrl(server.url, name), ...times };
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Keyword top 10 on PostgreSQL at one size: one row, beside SQLite's. */
export function keywordOnPostgres(options: PostgresKeywordOptions): RetrievalBenchRow {
  const { server, name, size, timed, sqliteTops } = options;
  const corpus = corpusDatabase(options);
  const db = new PostgresDb(corpus.url, 'parley-bench');
  try {
    const chunks = createPostgresChunkStore(db);
    const search = (q: Question) => searchKeyword({ chunks }, { kb_ids: q.kb_ids, text: q.text, limit: 10 });
    for (const q of options.warmup) search(q);
    const ms: number[] = [];
    let found = 0;
    let topical = 0;
    let same = 0;
    let reference = 0;
    for (const [i, q] of timed.entries()) {
      const started = performance.now();
      const hits = search(q);
      ms.push(performance.now() - started);
      const sqlite = new Set(sqliteTops[i]);
      same += hits.filter((h) => sqlite.has(h.chunk_id)).length;
      reference += sqlite.size;
      if (!q.source) continue;
      topical++;
      if (hits.some((h) => h.artifact_id === q.source)) found++;
    }
    const s = summarize(ms);
    const mb = Number(db.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes').rows[0]?.bytes ?? 0) / 1e6;
    return {
      name: 'keyword top-10, all questions, on PostgreSQL',
      chunks: size,
      p50_ms: round(s.p50),
      p95_ms: round(s.p95),
      ...(corpus.buildMs === undefined ? {} : { build_s: round(corpus.buildMs / 1000, 1) }),
      ...(corpus.optimizeMs === undefined ? {} : { optimize_s: round(corpus.optimizeMs / 1000, 1) }),
      db_mb: Math.round(mb),
      source_in_top10: round(found / Math.max(1, topical), 3),
      sqlite_overlap_at_10: round(reference === 0 ? 1 : same / reference, 3),
    };
  } finally {
    db.close();
    // A throwaway server's databases go with it; a corpus on a given server is kept for the next run.
    if (!server.persistent) dropDatabase(server.url, name);
  }
}
