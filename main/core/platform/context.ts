import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { UserRecord } from '../../db/repositories/users.js';
import type { AnswerSlotsPort, StreamHubPort } from './ports/answers.js';
import type { Providers } from './ports/providers.js';
import type { HealthRecorder } from './ports/model-health.js';
import type { SecretBox } from './secrets/secret-box.js';
import type { CredentialHasher } from './ports/credentials.js';
import type { EmbeddingModel, KeywordThread } from '../../search/index.js';
import type { FolderWatchersPort, IngestPort } from './ports/knowledge.js';
import type { BlobStorage } from './storage/blob-storage.js';
import type { LiveConfig } from './config/live.js';
import type { McpClientsPort } from './ports/mcp.js';
import type { ModelDownloadsPort } from './ports/model-downloads.js';
import type { LocalModelsPort } from './ports/local-models.js';
import type { Logger } from './logger.js';
import type { LifecyclePort } from './ports/lifecycle.js';
import type { NoticesPort } from './ports/notices.js';

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

/**
 * Long-lived parts of the running service that are not stored in the database. Each service is the
 * small interface its users call (ports/), implemented in its wing and wired by main/boot.ts.
 */
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
  local: LocalModelsPort;
  hub: StreamHubPort;
  /** Notices between the instances sharing the database (a cancel reaching one not writing the answer). */
  notices: NoticesPort;
  /** The answers each user has being written, bounded by `[chat] max_concurrent_answers`. */
  answerSlots: AnswerSlotsPort;
  /** The one logger of the core (pino when booted by serve.ts or the desktop app). */
  log: Logger;
  /** Stops accepting work at shutdown and knows what is still running (service/lifecycle.ts). */
  lifecycle: LifecyclePort;
  blobs: BlobStorage;
  ingest: IngestPort;
  /** Watched folders being followed (issue 30); absent in a process that only joins a data directory. */
  folders?: FolderWatchersPort | undefined;
  /** Model files being downloaded into `<data-dir>/models/`. */
  downloads: ModelDownloadsPort;
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
  mcp?: McpClientsPort | undefined;
  /** `served`: headless (`serve.ts`), the HTTP server is the app; `desktop`: the Electron app. */
  mode: 'desktop' | 'served';
  /** The database it runs on, and this process among the instances sharing it (`GET /health`). */
  storage: { kind: 'sqlite' | 'postgres'; instance: string };
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

/**
 * The part of a context a function uses: the fields `C` and the runtime's services `R`
 * (`ContextSlice<'config', 'local'>`), so a domain names what it needs rather than taking the bag.
 */
export type ContextSlice<C extends Exclude<keyof Context, 'runtime'> = never, R extends keyof Runtime = never> = Pick<Context, C> & { runtime: Pick<Runtime, R> };

/** A slice with a signed-in caller, for functions of non-public operations. */
export type AuthedSlice<C extends Exclude<keyof Context, 'runtime' | 'caller'> = never, R extends keyof Runtime = never> = ContextSlice<C, R> & { caller: Caller };

export const isoNow = (ctx: Pick<Context, 'now'>): string => ctx.now().toISOString();
