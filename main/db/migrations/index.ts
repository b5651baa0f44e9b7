import { m010_identity } from './010-identity.js';
import { m020_config } from './020-config.js';
import { m030_chat } from './030-chat.js';
import { m040_datasets } from './040-datasets.js';
import { m060_reports } from './060-reports.js';
import { m050_retrieval } from './050-retrieval.js';
import { m070_comparisons } from './070-comparisons.js';
import { m080_thoughts } from './080-thoughts.js';
import { m090_admin } from './090-admin.js';
import { m110_model_downloads } from './110-model-downloads.js';
import { m120_message_branches } from './120-message-branches.js';
import { m150_hardening } from './150-hardening.js';
import { m160_drop_message_thoughts } from './160-drop-message-thoughts.js';
import { m170_vector_index } from './170-vector-index.js';
import { m180_embedding_progress } from './180-embedding-progress.js';
import { m190_searchable_chunks } from './190-searchable-chunks.js';
import { m200_folders } from './200-folders.js';
import { m210_download_url_credentials } from './210-download-url-credentials.js';
import { m220_words } from './220-words.js';
import { m230_answer_timing } from './230-answer-timing.js';
import { m240_message_search } from './240-message-search.js';
import { m250_thread_title_source } from './250-thread-title-source.js';
import { m260_thread_sampling } from './260-thread-sampling.js';
import { m270_thread_files } from './270-thread-files.js';
import { m280_message_images } from './280-message-images.js';
import { m290_user_identities } from './290-user-identities.js';
import { m300_instances } from './300-instances.js';
import type { Db } from '../connection.js';

/** How far a migration's long step has got, in its own units (chunks re-indexed, …). */
export interface MigrationStep {
  done: number;
  total: number;
}

export type MigrationProgress = (step: MigrationStep) => void;

export interface Migration {
  /** Strictly increasing, numbered in tens so a fix can slot in between. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Work SQL cannot do (re-indexing text through ICU, say), run after `sql` in the same
   * transaction: a failure leaves the database as it was. A long one reports its progress.
   */
  readonly after?: (db: Db, progress: MigrationProgress) => void;
  /** The line that says how far `after` is, for the log of a start that takes a while. */
  readonly describe?: (step: MigrationStep) => string;
}

/** Every migration, in order. Append only: a shipped migration is never edited. */
export const MIGRATIONS: readonly Migration[] = [
  m010_identity,
  m020_config,
  m030_chat,
  m040_datasets,
  m050_retrieval,
  m060_reports,
  m070_comparisons,
  m080_thoughts,
  m090_admin,
  m110_model_downloads,
  m120_message_branches,
  m150_hardening,
  m160_drop_message_thoughts,
  m170_vector_index,
  m180_embedding_progress,
  m190_searchable_chunks,
  m200_folders,
  m210_download_url_credentials,
  m220_words,
  m230_answer_timing,
  m240_message_search,
  m250_thread_title_source,
  m260_thread_sampling,
  m270_thread_files,
  m280_message_images,
  m290_user_identities,
  m300_instances,
];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
