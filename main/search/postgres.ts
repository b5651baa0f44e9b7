import { PostgresDb } from '../db/postgres/connection.js';
import { createPostgresChunkStore } from '../db/postgres/chunks.js';
import type { ChunksRepo } from '../db/repositories/chunks.js';
import type { SqlDb } from '../db/sql.js';

/**
 * Search on PostgreSQL: the chunks repository whose keyword ranking is PostgreSQL's full-text
 * search and whose vectors are pgvector's (main/db/postgres/chunks.ts). main/search runs on it
 * unchanged: the keyword planner asks it what it asks SQLite's, and every query runs on the
 * calling thread, the server running them side by side — the keyword thread has no SQLite file
 * to read there (boot.ts gives it none: `new KeywordThread({ file: undefined })` never shares).
 */
export function postgresChunks(log?: (line: string) => void): (db: SqlDb, now: () => Date) => ChunksRepo {
  return (db, now) => {
    if (!(db instanceof PostgresDb)) throw new Error('PostgreSQL chunks need a PostgreSQL connection');
    return createPostgresChunkStore(db, now, log);
  };
}
