import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { UserRecord } from '../../db/repositories/users.js';
import type { StreamHub } from '../answering/hub.js';
import type { Providers } from '../models/providers/index.js';
import type { ModelHealth } from '../models/routing/types.js';
import type { SecretBox } from './secrets/secret-box.js';
import type { CredentialHasher } from './auth/credential-hash.js';
import type { EmbeddingModel } from '../knowledge/retrieval/embedder.js';
import type { KeywordThread } from '../knowledge/retrieval/keyword-thread.js';
import type { IngestQueue } from '../knowledge/ingest/queue.js';
import type { FolderWatchers } from '../knowledge/folders/watchers.js';
import type { BlobStore } from './storage/blob-store.js';
import type { LiveConfig } from './config/live.js';
import type { McpClients } from '../conversation/mcp/clients.js';
import type { ModelDownloads } from '../models/local/downloads/runner.js';
import type { LocalModels } from '../models/local/registry.js';
import type { Logger } from './logger.js';
import type { Lifecycle } from '../service/lifecycle.js';
import type { AnswerSlots } from '../answering/slots.js';

/** How a caller proved who they are. The desktop renderer over IPC acts as the desktop profile. */
export type CredentialKind = 'ipc' | 'api_key' | 'user_token' | 'access_token';

export interface Caller {
  user: UserRecord;
  via: CredentialKind;
  /**
   * Set for trial users: the user token that bounds everything they do. Its expiry ends every
   * credential they hold; its quota counts their model calls (auth/quota.ts).
   */
  trialTokenId?: string;
}

/** Observed model health, fed by every model call; the router reads it. */
export interface HealthRecorder {
  health(modelId: string): ModelHealth;
  /** False while the model's circuit is open (or its half-open trial is taken). */
  tryAcquire(modelId: string): boolean;
  recordSuccess(modelId: string, latencyMs: number): void;
  recordFailure(modelId: string): void;
  /** A connection test's outcome: a failure holds the model unavailable until a test passes. */
  recordTest(modelId: string, ok: boolean, latencyMs: number): void;
  /** Drops what is known about a model (removed, or edited to call something else). */
  forget(modelId: string): void;
}

/** Long-lived parts of the running service that are not stored in the database. */
export interface Runtime {
  health: HealthRecorder;
  secrets: SecretBox;
  /** Hashes API keys and tokens under this installation's credential key (auth/credential-hash.ts). */
  credentials: CredentialHasher;
  /** The configured embedding model, if any (hybrid search). */
  embedding: () => EmbeddingModel | undefined;
  /** Shares each keyword search, query by query, with a thread of its own (started by the first search). */
  keywords: KeywordThread;
  providers: Providers;
  /** Local GGUF models: what was found on this machine, and llama.cpp running them. */
  local: LocalModels;
  hub: StreamHub;
  /** The answers each user has being written, bounded by `[chat] max_concurrent_answers`. */
  answerSlots: AnswerSlots;
  /** The one logger of the core (pino when booted by serve.ts or the desktop app). */
  log: Logger;
  /** Stops accepting work at shutdown and knows what is still running (service/lifecycle.ts). */
  lifecycle: Lifecycle;
  blobs: BlobStore;
  ingest: IngestQueue;
  /** Watched folders being followed (issue 30); absent in a process that only joins a data directory. */
  folders?: FolderWatchers | undefined;
  /** Model files being downloaded into `<data-dir>/models/`. */
  downloads: ModelDownloads;
  /** Signs upload URLs; kept in the database so URLs survive a restart. */
  signingKey: Buffer;
  /** `http://127.0.0.1:<port>` once the HTTP server listens (absolute upload URLs); null without one. */
  baseUrl: () => string | null;
  setBaseUrl: (url: string | null) => void;
  /**
   * The configuration in force (what `Context.config` reads), its text and version; pieces built
   * from it at start-up follow it with `liveConfig.onChange`.
   */
  liveConfig: LiveConfig;
  /** The MCP servers of `[[mcp.servers]]`, whose tools agents may call; absent where none can run (some tests). */
  mcp?: McpClients | undefined;
  /** `served`: headless (`serve.ts`), the HTTP server is the app; `desktop`: the Electron app. */
  mode: 'desktop' | 'served';
  /** Why the HTTP server is not listening although the configuration asks for it, or null. */
  serverProblem: () => string | null;
  setServerProblem: (problem: string | null) => void;
}

/** What every core function receives: the stores, the live configuration and the caller. */
export interface Context {
  repos: Repositories;
  config: () => Config;
  now: () => Date;
  appVersion: string;
  runtime: Runtime;
  caller: Caller | null;
}

/** A context with a signed-in caller, as every non-public operation gets. */
export interface AuthedContext extends Context {
  caller: Caller;
}

export const isoNow = (ctx: Pick<Context, 'now'>): string => ctx.now().toISOString();
