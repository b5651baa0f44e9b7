import Database from 'better-sqlite3';
import type { SqlDb } from '../sql.js';
import { storageError, typedErrors } from '../errors.js';
import { createChunkStore, type ChunkIndexPlugins } from './chunks.js';
import { createComparisonsRepo } from './comparisons.js';
import { createArtifactsRepo } from './artifacts.js';
import { createFoldersRepo } from './folders.js';
import { createIdentitiesRepo } from './identities.js';
import { createInstancesRepo } from './instances.js';
import { createConfigVersionsRepo } from './config-versions.js';
import { createDatasetsRepo } from './datasets.js';
import { createCredentialsRepo } from './credentials.js';
import { createMessagesRepo } from './messages.js';
import { createMessageImagesRepo } from './message-images.js';
import { createModelsRepo } from './models.js';
import { createModelDownloadsRepo } from './model-downloads.js';
import { createReportsRepo } from './reports.js';
import { createSettingsRepo } from './settings.js';
import { createThreadsRepo } from './threads.js';
import { createThoughtsRepo } from './thoughts.js';
import { createUsageRepo } from './usage.js';
import { createUsersRepo } from './users.js';
import { createMetricsRepo } from './metrics.js';
import { createWorkflowsRepo } from './workflows.js';

/**
 * Every repository over one connection; the only place SQL lives. The connection itself is not
 * exposed: the core sees repository functions whose signatures hold no SQLite type (a PostgreSQL
 * implementation could stand in), and whose failures are typed (db/errors.ts). Whoever opened the
 * connection (boot.ts) closes it, after the shutdown rule (service/lifecycle.ts).
 */
export interface RepositoryOptions {
  /** The clock repositories stamp times with (the service's injected clock). */
  now?: () => Date;
  /** A better-sqlite3 build for another ABI (Electron's), for the connections of the chunks' worker threads (term statistics, vector graphs). */
  nativeBinding?: string | undefined;
  /** Where the chunks' background work says what went wrong (default: the console). */
  log?: ((line: string) => void) | undefined;
  /** The chunks' vector graphs and worker threads: main/search plugs them in (main/search/repositories.ts); none here, so exact kNN and refreshes in place. */
  chunkIndex?: ChunkIndexPlugins | undefined;
  /** The instance these repositories work for (`instances`, `written_by`, claims: migration 300); none for tools and tests that only read. */
  instance?: string | undefined;
  /** PostgreSQL's chunks (main/db/postgres/chunks.ts): passed in, since they are built on this module's types. */
  postgresChunks?: ((db: SqlDb, now: () => Date) => ReturnType<typeof createChunkStore>) | undefined;
}

/**
 * The chunks and their search indexes: SQLite's (FTS5, sqlite-vec, the graphs main/search plugs in)
 * or PostgreSQL's (full-text search, pgvector), behind one repository type.
 */
function createChunks(db: SqlDb, now: () => Date, options: RepositoryOptions) {
  if (db instanceof Database) return createChunkStore(db, now, options.chunkIndex);
  if (options.postgresChunks) return options.postgresChunks(db, now);
  throw new Error('This connection has no chunk store: PostgreSQL needs the one main/db/postgres/ makes.');
}

export function createRepositories(db: SqlDb, options: RepositoryOptions = {}) {
  const now = options.now ?? (() => new Date());
  return {
    users: typedErrors(createUsersRepo(db)),
    credentials: typedErrors(createCredentialsRepo(db)),
    settings: typedErrors(createSettingsRepo(db)),
    configVersions: typedErrors(createConfigVersionsRepo(db)),
    models: typedErrors(createModelsRepo(db)),
    threads: typedErrors(createThreadsRepo(db)),
    messages: typedErrors(createMessagesRepo(db, options.instance ?? null)),
    messageImages: typedErrors(createMessageImagesRepo(db)),
    usage: typedErrors(createUsageRepo(db)),
    chunks: typedErrors(createChunks(db, now, options)),
    datasets: typedErrors(createDatasetsRepo(db)),
    artifacts: typedErrors(createArtifactsRepo(db)),
    folders: typedErrors(createFoldersRepo(db)),
    reports: typedErrors(createReportsRepo(db)),
    comparisons: typedErrors(createComparisonsRepo(db, options.instance ?? null)),
    thoughts: typedErrors(createThoughtsRepo(db)),
    metrics: typedErrors(createMetricsRepo(db)),
    workflows: typedErrors(createWorkflowsRepo(db)),
    modelDownloads: typedErrors(createModelDownloadsRepo(db)),
    identities: typedErrors(createIdentitiesRepo(db)),
    instances: typedErrors(createInstancesRepo(db, options.instance ?? null)),
    /** Runs `fn` in one transaction (nested calls become savepoints); a full disk rolls it back and is typed. */
    transaction: <T>(fn: () => T): T => {
      try {
        return db.transaction(fn)();
      } catch (error) {
        throw storageError(error);
      }
    },
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
