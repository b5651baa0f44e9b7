import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../shared/config.js';
import { randomBytes } from 'node:crypto';
import { openStorage, sqliteFile, type StorageKind } from './db/storage.js';
import { openNotices } from './db/notices.js';
import { answerCancels } from './core/answering/cancel-anywhere.js';
import type { SqlDb } from './db/sql.js';
import { logMigrationProgress } from './db/migration-progress.js';
import type { Repositories } from './db/repositories/index.js';
import { createRepositories } from './search/repositories.js';
import { ensureOwner } from './core/platform/auth/owner.js';
import { CONFIG_FILE, describeProblems, loadConfig } from './core/platform/config/load.js';
import { LiveConfig } from './core/platform/config/live.js';
import { watchConfigFile } from './core/platform/config/save.js';
import type { Caller } from './core/platform/context.js';
import type { AssembledRuntime } from './core/service/runtime.js';
import { createService, type Service } from './core/service/service.js';
import { StreamHub } from './core/answering/hub.js';
import { AnswerSlots } from './core/answering/slots.js';
import { INTERRUPTED } from './core/answering/streamed-answer.js';
import { createProviders } from './core/models/providers/index.js';
import { HealthTracker } from './core/models/routing/health.js';
import { hmacHasher, loadCredentialKey } from './core/platform/auth/credential-hash.js';
import { ensurePrivateFile, securePrivateDir } from './core/platform/storage/private-files.js';
import { keyFileSecretBox, type SecretBox } from './core/platform/secrets/secret-box.js';
import { IngestQueue } from './core/knowledge/ingest/queue.js';
import { embeddingModel } from './core/knowledge/retrieval/embedder.js';
import { KeywordThread } from './search/keyword/keyword-thread.js';
import { BlobStore } from './core/platform/storage/blob-store.js';
import { uploadSigningKey } from './core/knowledge/uploads/signing-key.js';
import { McpClients } from './core/conversation/mcp/clients.js';
import { realTimers } from './core/conversation/mcp/timers.js';
import { ModelDownloads, type DownloadsOptions } from './core/models/local/downloads/runner.js';
import { UploadSweeper } from './core/knowledge/uploads/cleanup.js';
import { LocalEngine, type IdleTimers } from './core/models/local/engine.js';
import { ProcessHost, type HostSpawner } from './core/models/local/host/client.js';
import { InProcessHost } from './core/models/local/host/in-process.js';
import { LocalModels } from './core/models/local/registry.js';
import { silentLogger, type Logger } from './core/platform/logger.js';
import { Lifecycle } from './core/service/lifecycle.js';
import type { FolderEnv } from './core/models/local/folders.js';
import { DEFAULT_FOLDER_TIMING, FolderWatchers, type FolderTiming } from './core/knowledge/folders/watchers.js';
import { Membership, claimsOf, instanceTimingFromEnv, type Every, type InstanceTiming } from './core/platform/instances/membership.js';

export interface BootOptions {
  dataDir: string;
  appVersion: string;
  /** PARLEY_ADMIN_API_KEY: the owner's API key on an empty data directory. */
  adminApiKey?: string | undefined;
  /** A better-sqlite3 build for Electron's ABI. */
  nativeBinding?: string | undefined;
  /** `postgres://…`: the database is this PostgreSQL server's (the team server); SQLite in the data directory otherwise. */
  databaseUrl?: string | undefined;
  /** How provider secrets are encrypted at rest: Electron's safeStorage on the desktop, a key file otherwise. */
  secretBox?: SecretBox | undefined;
  /** The service's clock; tests move it to expire things without waiting. */
  now?: () => Date;
  /** The core's one logger (pino in served mode and on the desktop); silent by default. */
  log?: Logger | undefined;
  /** How long shutdown waits for running answers and jobs before it closes anyway (10 s by default). */
  shutdownGraceMs?: number | undefined;
  /** Served mode (headless, the HTTP server is the app) or the desktop app; served by default. */
  mode?: 'desktop' | 'served' | undefined;
  /** Follow hand edits of parley.toml while running (on by default; its stat is polled). */
  watchConfigFile?: boolean | undefined;
  /**
   * Recover what the last run left unfinished (answers marked interrupted, file processing resumed).
   * On by default; off for a process that joins a data directory another Parley may be using (the
   * MCP stdio entry), which must not take over that one's answers and files.
   */
  recover?: boolean | undefined;
  /** Watched folders' timings (tests shorten the settle time, or force the polling fallback). */
  folderTiming?: Partial<FolderTiming> | undefined;
  /** Model downloads' network side: tests make the back-off 0, drive the timers, swap fetch or the free space. */
  downloads?: Pick<DownloadsOptions, 'backoffMs' | 'maxRetries' | 'fetch' | 'stallMs' | 'giveUpAfterMs' | 'timers' | 'freeBytes' | 'reachable'> | undefined;
  /**
   * The instances' heartbeat and lease (issue 33: several instances on one database); by default
   * PARLEY_INSTANCE_HEARTBEAT_MS and PARLEY_INSTANCE_LEASE_MS, else 10 s and 60 s. `instanceEvery`:
   * tests drive the heartbeat by hand.
   */
  instanceTiming?: InstanceTiming | undefined;
  instanceEvery?: Every | undefined;
  /** How often expired uploads are swept (default 10 minutes); tests shorten it. */
  uploadSweepIntervalMs?: number | undefined;
  /** Tests only (no configuration reaches it): write uploaded bytes to this device, e.g. /dev/full for a full disk. */
  blobWriteDevice?: string | undefined;
  /** Where the model folders of LM Studio, Jan, GPT4All and Ollama are looked for (the user's home by default). */
  folderEnv?: (() => FolderEnv) | undefined;
  /** Timers of the local models' idle unload when they run in this process (`localModelHost: 'in-process'`); tests pass fakes. */
  idleTimers?: IdleTimers | undefined;
  /**
   * Where local models run: a process of their own, so a native crash or an out-of-memory kill in
   * llama.cpp ends only it — started with this spawner (Electron's utilityProcess on the desktop),
   * child_process.fork by default. `in-process` runs them in this process (benches, to compare).
   */
  localModelHost?: HostSpawner | 'in-process' | undefined;
  /**
   * The models shipped with the app (`process.resourcesPath/models` in the packaged desktop app):
   * `[retrieval] embedding_model = "auto"` embeds with the one there. PARLEY_BUNDLED_MODELS_DIR
   * overrides it (served mode, tests).
   */
  bundledModelsDir?: string | undefined;
}

export interface Core {
  db: SqlDb;
  /** Which database it runs on. */
  storage: StorageKind;
  /** This process among the instances that share one database (`GET /health` says it). */
  instance: string;
  repos: Repositories;
  service: Service;
  runtime: AssembledRuntime;
  config: () => Config;
  /** The desktop profile: who the renderer acts as over IPC. */
  desktopCaller: () => Caller;
  /** The owner (the desktop profile), and whether this start created it (an empty data directory). */
  owner: { userId: string; created: boolean };
  dataDir: string;
  /** Resolves once the start-up cleanup of unfinished uploads is done. */
  cleanedUp: Promise<unknown>;
  /**
   * The one shutdown rule: stop accepting (new requests get 503 `unavailable`), wait for the
   * answers and jobs that run (answers are stored as interrupted with their text), then close the
   * database. Calling it again returns the same promise.
   */
  close: () => Promise<void>;
}

function defaultOwnerName(): string {
  try {
    return userInfo().username || 'Owner';
  } catch {
    return 'Owner';
  }
}

/** Opens the data directory: database, owner, configuration and the service over them. */
export function bootCore(options: BootOptions): Core {
  const log = options.log ?? silentLogger;
  const tightened = securePrivateDir(options.dataDir);
  if (tightened) log.warn(tightened);
  // Made private before SQLite first writes it: the file holds every thread.
  if (!options.databaseUrl) ensurePrivateFile(sqliteFile(options.dataDir));
  const storage = openStorage({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
    nativeBinding: options.nativeBinding,
    log: (message) => log.warn(message),
    onMigrationProgress: logMigrationProgress((line) => log.info(line)),
  });
  const { db } = storage;
  // Requests reaching an instance that does not hold the work (an answer, a file, a download, a
  // followed folder): LISTEN/NOTIFY on PostgreSQL.
  const notices = openNotices(storage, log);
  const dbFile = storage.kind === 'sqlite' ? storage.file : undefined;
  const instance = process.env.PARLEY_INSTANCE_ID || `inst_${randomBytes(6).toString('hex')}`;
  try {
    const clock = (): Date => options.now?.() ?? new Date();
    const repos = createRepositories(db, { now: clock, nativeBinding: options.nativeBinding, log: (line) => log.warn(line), instance });
    const now = new Date().toISOString();
    const credentials = hmacHasher(loadCredentialKey(options.dataDir));
    // Seeding an empty database (the owner, the first configuration version) happens once, however
    // many instances start on it together: on PostgreSQL under a lock the others wait for.
    const { owner, loaded } = storage.startingAlone(() => ({
      owner: ensureOwner(repos, { name: defaultOwnerName(), adminApiKey: options.adminApiKey, now, hasher: credentials }),
      loaded: loadConfig(repos, options.dataDir, now),
    }));
    if (!owner.created && options.adminApiKey) {
      log.warn('PARLEY_ADMIN_API_KEY is ignored: the data directory already has an owner.');
    }
    if (loaded.problems.length > 0) {
      log.warn(
        `The configuration file is invalid; using the last good version (${loaded.version || 'defaults'}) until it is fixed:\n` +
          describeProblems(join(options.dataDir, CONFIG_FILE), loaded.problems),
      );
    }
    const mode = options.mode ?? 'served';
    const live = new LiveConfig(join(options.dataDir, CONFIG_FILE), loaded, loaded.problems, now, log);
    // Served mode is its HTTP server (the page comes from it too): where it listens holds until a
    // restart. The desktop app restarts its server itself when these change (desktop/app.ts).
    if (mode === 'served') live.pinUntilRestart(['server.host', 'server.port']);
    const config = () => live.config();
    const recover = options.recover ?? true;
    // Joins the instances on this database, after removing those gone: their answers and work are free.
    const membership = new Membership({
      repo: repos.instances,
      now: clock,
      log,
      recovers: recover,
      exclusive: storage.kind === 'sqlite',
      timing: options.instanceTiming ?? instanceTimingFromEnv(process.env, log),
      every: options.instanceEvery,
    });
    const { otherServers } = membership.join();
    const claims = (kind: Parameters<typeof claimsOf>[1]) => claimsOf(repos.instances, kind, clock);
    const interrupted = recover ? repos.messages.markInterrupted(INTERRUPTED.detail, now) : 0;
    if (interrupted > 0) log.warn(`${interrupted} answer(s) were being written when Parley last stopped; their text so far is kept, marked interrupted.`);
    const blobs = new BlobStore(options.dataDir, { writeDevice: options.blobWriteDevice });
    const secrets = options.secretBox ?? keyFileSecretBox(options.dataDir);
    const engine =
      options.localModelHost === 'in-process'
        ? new InProcessHost(new LocalEngine({ config, log, ...(options.idleTimers ? { timers: options.idleTimers } : {}) }))
        : new ProcessHost({ config, log, spawn: options.localModelHost });
    // Set once the embedding queue exists: a scan or a configuration change may change the embedder.
    let syncEmbeddings = (): void => {};
    const local = new LocalModels({
      dataDir: options.dataDir,
      config,
      engine,
      registeredPaths: () => repos.models.localPaths(),
      ...(options.folderEnv ? { env: options.folderEnv } : {}),
      bundledDir: process.env.PARLEY_BUNDLED_MODELS_DIR || options.bundledModelsDir,
      onScan: () => syncEmbeddings(),
    });
    const embedding = () => embeddingModel({ repos, config, secrets, local });
    let baseUrl: string | null = null;
    let serverProblem: string | null = null;
    const health = new HealthTracker(loaded.config.routing);
    live.onChange(({ config: next }) => health.setPolicy(next.routing));
    const runtime: AssembledRuntime = {
      health,
      secrets,
      credentials,
      embedding,
      keywords: new KeywordThread({ file: dbFile, nativeBinding: options.nativeBinding, log: (line) => log.warn(line) }),
      providers: createProviders(local),
      local,
      hub: new StreamHub(),
      notices,
      answerSlots: new AnswerSlots(() => config().chat.max_concurrent_answers),
      log,
      lifecycle: new Lifecycle(),
      blobs,
      ingest: new IngestQueue({ repos, blobs, config, embedding, log, claims: { ingest: claims('ingest'), embedding: claims('embedding') }, notices }),
      downloads: new ModelDownloads({
        repo: repos.modelDownloads,
        dataDir: options.dataDir,
        config,
        now: () => options.now?.() ?? new Date(),
        log,
        onInstalled: () => void local.refresh().catch((error: unknown) => log.warn(`looking for local models failed: ${String(error)}`)),
        ...options.downloads,
        claims: claims('download'),
        notices,
      }),
      signingKey: uploadSigningKey(repos),
      baseUrl: () => baseUrl,
      setBaseUrl: (url) => {
        baseUrl = url;
      },
      liveConfig: live,
      mode,
      storage: { kind: storage.kind, instance },
      mcp: new McpClients(live, { timers: realTimers, clientInfo: { name: 'Parley', version: options.appVersion }, log }),
      serverProblem: () => serverProblem,
      setServerProblem: (problem) => {
        serverProblem = problem;
      },
    };
    answerCancels(runtime);
    // Find the local models in the background: the first listing waits for this scan anyway.
    local.refresh().catch((error: unknown) => log.warn(`looking for local models failed: ${String(error)}`));
    // Vector graphs load (or are rebuilt) off the main thread from now on; searches use exact kNN until each is ready.
    setImmediate(() => {
      if (db.open) repos.chunks.warmVectorGraphs();
    });
    const resumed = recover ? runtime.ingest.resume() : 0;
    // Another embedding model (chosen, found, downloaded) embeds the files already there again, in the background.
    if (recover) {
      syncEmbeddings = () => runtime.ingest.embeddings.sync();
      live.onChange(() => syncEmbeddings());
      syncEmbeddings();
    }
    // Followed folders: what changed while Parley was stopped is reconciled, then followed live.
    if (recover) {
      runtime.folders = new FolderWatchers(
        { repos, blobs, ingest: runtime.ingest, config, log, now: clock, dataDir: options.dataDir, claims: claims('folder'), notices },
        { ...DEFAULT_FOLDER_TIMING, ...options.folderTiming },
      );
      runtime.folders.resume();
    }
    if (resumed > 0) log.warn(`Resuming the processing of ${resumed} file(s) interrupted when Parley last stopped.`);
    const downloading = recover ? runtime.downloads.resume() : 0;
    if (downloading > 0) log.warn(`Resuming ${downloading} model download(s) interrupted when Parley last stopped.`);
    const sweeper = new UploadSweeper({ repos, blobs, now: clock }, options.uploadSweepIntervalMs ?? 10 * 60_000, log);
    // A process that joins a running Parley (recover: false) leaves that one's uploads alone; with
    // other servers live on the database, only expired uploads go (theirs may be in flight).
    const cleanedUp = recover ? sweeper.start({ nothingInFlight: otherServers === 0 }) : Promise.resolve(0);
    // Every heartbeat, a server takes up what nobody live holds: a dead instance's answers end as
    // interrupted, its files, embeddings, downloads and folders go on here.
    membership.start(() => {
      const orphaned = repos.messages.markInterrupted(INTERRUPTED.detail, clock().toISOString());
      if (orphaned > 0) log.warn(`${orphaned} answer(s) were being written by an instance that stopped; their text so far is kept, marked interrupted.`);
      const files = runtime.ingest.resume();
      runtime.folders?.resume(true);
      const downloads = runtime.downloads.resume();
      if (files + downloads > 0) log.warn(`Taking over ${files} file(s) and ${downloads} download(s) left by an instance that stopped.`);
    });
    const service = createService({ repos, config, appVersion: options.appVersion, runtime, ...(options.now ? { now: options.now } : {}) });
    const desktopCaller = (): Caller => {
      const user = repos.users.get(owner.userId);
      if (!user) throw new Error('the desktop profile has no user');
      return { user, via: 'ipc' };
    };
    const unwatch =
      options.watchConfigFile === false ? () => {} : watchConfigFile({ repos, live }, { now: () => (options.now?.() ?? new Date()).toISOString(), log });
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> =>
      (closing ??= (async () => {
        unwatch();
        membership.stopBeating();
        // Stop accepting, and wait for every answer and job to store where it stands.
        await runtime.lifecycle.drain(
          async () => {
            // Followed folders first: they stop handing files to ingestion, which then drains.
            await runtime.folders?.close();
            await Promise.all([runtime.hub.shutdown(), runtime.ingest.stop(), sweeper.stop(), runtime.downloads.stop()]);
          },
          log,
          options.shutdownGraceMs,
        );
        await Promise.allSettled([runtime.mcp?.close(), engine.close(), repos.chunks.stopBackgroundWork(), runtime.keywords.close()]);
        await notices.close();
        // What is left unfinished is free for the other instances at once, not after the lease.
        membership.leave();
        db.close();
      })());
    return { db, storage: storage.kind, instance, repos, service, runtime, config, desktopCaller, owner, dataDir: options.dataDir, cleanedUp, close };
  } catch (error) {
    void notices.close();
    db.close();
    throw error;
  }
}
