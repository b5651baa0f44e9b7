import type { SqlDb } from '../db/sql.js';
import { createRepositories as createDbRepositories, type Repositories, type RepositoryOptions } from '../db/repositories/index.js';
import { chunkIndexPlugins } from './chunks.js';
import { postgresChunks } from './postgres.js';

/**
 * The repositories the app runs with (boot.ts): main/db's, with search's vector graphs and worker
 * threads plugged into the chunks, told the native binding and the log the repositories are given;
 * on PostgreSQL, its own chunks (full-text search and pgvector, ./postgres.ts).
 */
export function createRepositories(db: SqlDb, options: Omit<RepositoryOptions, 'chunkIndex'> = {}): Repositories {
  return createDbRepositories(db, {
    ...options,
    chunkIndex: chunkIndexPlugins({ nativeBinding: options.nativeBinding, log: options.log }),
    postgresChunks: postgresChunks(options.log),
  });
}
