import type { Db } from '../db/connection.js';
import { createChunkStore, type ChunkIndexPlugins } from '../db/repositories/chunks.js';
import { createAnn, DEFAULT_ANN, type AnnParams } from './vectors/ann.js';
import { runInBackground } from './vectors/background.js';

export * from '../db/repositories/chunks.js';

export interface ChunkIndexOptions {
  /** HNSW parameters (tests and the bench tune them). */
  ann?: Partial<AnnParams>;
  /** Where graphs are built and loaded: in a worker thread (default for a database file) or in place. */
  annBuild?: 'background' | 'inline';
  /** A better-sqlite3 build for another ABI (Electron's), for the worker threads' connections. */
  nativeBinding?: string | undefined;
  /** Where failed background work is said (default: the console). */
  log?: ((line: string) => void) | undefined;
  /** How long shutdown waits for the vector graphs to be saved (default 60 s). */
  shutdownSaveMs?: number | undefined;
}

/**
 * What search plugs into main/db's chunks repository: the HNSW graphs (saved beside the database,
 * in `<db>.vectors/`) and the reads that run in a worker thread (graph builds, term statistics).
 */
export function chunkIndexPlugins(options: ChunkIndexOptions = {}): ChunkIndexPlugins {
  const log = options.log ?? ((line: string) => console.warn(line));
  return {
    graphs: (dbFile, source) =>
      createAnn(dbFile ? `${dbFile}.vectors` : undefined, source, { ...DEFAULT_ANN, ...options.ann }, {
        dbFile,
        nativeBinding: options.nativeBinding,
        build: options.annBuild ?? 'background',
        shutdownSaveMs: options.shutdownSaveMs,
        log,
      }),
    termSnapshot: async (dbFile, minDf, signal) => {
      const result = await runInBackground({ kind: 'term-stats', dbFile, nativeBinding: options.nativeBinding, minDf }, signal);
      if (!result.ok) return { ok: false, reason: result.reason };
      return result.kind === 'term-stats' ? { ok: true, terms: result.terms, chunksInserted: result.chunksInserted } : { ok: false, reason: 'no statistics' };
    },
  };
}

/** The chunks repository as the app runs it: main/db's SQL with search's graphs and worker threads plugged in. */
export function createChunksRepo(db: Db, now: () => Date = () => new Date(), options: ChunkIndexOptions = {}) {
  return createChunkStore(db, now, chunkIndexPlugins(options));
}
