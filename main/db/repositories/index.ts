import type { Db } from '../connection.js';
import { createChunksRepo } from './chunks.js';
import { createComparisonsRepo } from './comparisons.js';
import { createArtifactsRepo } from './artifacts.js';
import { createConfigVersionsRepo } from './config-versions.js';
import { createDatasetsRepo } from './datasets.js';
import { createCredentialsRepo } from './credentials.js';
import { createMessagesRepo } from './messages.js';
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

export interface RepositoryOptions {
  /** The clock repositories stamp times with (the service's injected clock). */
  now?: () => Date;
}

/** Every repository over one connection; the only place SQL lives. */
export function createRepositories(db: Db, options: RepositoryOptions = {}) {
  const now = options.now ?? (() => new Date());
  return {
    db,
    users: createUsersRepo(db),
    credentials: createCredentialsRepo(db),
    settings: createSettingsRepo(db),
    configVersions: createConfigVersionsRepo(db),
    models: createModelsRepo(db),
    threads: createThreadsRepo(db),
    messages: createMessagesRepo(db),
    usage: createUsageRepo(db),
    chunks: createChunksRepo(db, now),
    datasets: createDatasetsRepo(db),
    artifacts: createArtifactsRepo(db),
    reports: createReportsRepo(db),
    comparisons: createComparisonsRepo(db),
    thoughts: createThoughtsRepo(db),
    metrics: createMetricsRepo(db),
    workflows: createWorkflowsRepo(db),
    modelDownloads: createModelDownloadsRepo(db),
    /** Runs `fn` in one transaction (nested calls become savepoints). */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
