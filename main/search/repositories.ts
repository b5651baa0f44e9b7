import type { Db } from '../db/connection.js';
import { createRepositories as createDbRepositories, type Repositories, type RepositoryOptions } from '../db/repositories/index.js';
import { chunkIndexPlugins } from './chunks.js';

/**
 * The repositories the app runs with (boot.ts): main/db's, with search's vector graphs and worker
 * threads plugged into the chunks, told the native binding and the log the repositories are given.
 */
export function createRepositories(db: Db, options: Omit<RepositoryOptions, 'chunkIndex'> = {}): Repositories {
  return createDbRepositories(db, { ...options, chunkIndex: chunkIndexPlugins({ nativeBinding: options.nativeBinding, log: options.log }) });
}
