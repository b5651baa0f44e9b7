import { mkdirSync, renameSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { DEFAULT_CONFIG, type Config } from '../../../../../shared/config.js';
import { ServiceError, errorText } from '../../../../../shared/errors.js';
import type { ModelDownloadRecord, ModelDownloadsRepo, DownloadPatch } from '../../../../db/repositories/model-downloads.js';
import { newId } from '../../../platform/ids.js';
import { formatBytes } from '../../../../../shared/bytes.js';
import { GGUF_MAGIC, PRIVATE_FILE, describeDiskError, downloadsDir, ensurePrivateDir, fileNameFor, freeBytesOf, hostAnswers, installFile, modelsDir, partPath, removeQuietly, sha256OfFile, sizeOf, startsWithGguf } from './files.js';
import { CREDENTIALS_NOT_RESUMED, SPACE_CHECK_EVERY_BYTES, endedShortOfStated, limitsOf, noRoom, refuseCredentials, sentMoreThanStated, tooLargeSent, tooLargeStated, urlHasCredentials, type DownloadLimits } from './limits.js';
import { DownloadRefused, isRetryableStatus, parseContentRange, requestRange, unsatisfiedRangeTotal, validatorOf, type Fetch } from './http.js';
import type { Logger } from '../../../platform/logger.js';
import type { DownloadView, ModelDownloadsPort } from '../../../platform/ports/model-downloads.js';
import { Watchdog, defaultBackoff, realTimers, sleep, sleepUntilReachable, type DownloadTimers } from './timing.js';
import type { InputOf } from '../../../platform/operation-handlers.js';
import { ALONE, type WorkClaims } from '../../../platform/instances/membership.js';
import type { NoticesPort } from '../../../platform/ports/notices.js';

export interface DownloadsOptions {
  repo: ModelDownloadsRepo;
  dataDir: string;
  /** The live configuration: `[local_models] max_download_gb` and `download_reserve_gb` (the defaults without it). */
  config?: () => Config;
  now: () => Date;
  fetch?: Fetch;
  /** Pause before retry `attempt` (1, 2, …) after a failure; 1 s doubling to 60 s by default. */
  backoffMs?: (attempt: number) => number;
  /**
   * Retries in a row without progress while the server answers with an error status (5xx, 429) or
   * keeps changing the file. A server that answers is reachable: it is not a network to wait for.
   */
  maxRetries?: number;
  /** A connection that delivers no byte for this long (30 s) is dropped and resumed. */
  stallMs?: number;
  /**
   * Network failures (no connection, a cut or stalled one) are retried until no byte has arrived
   * for this long: 24 h by default. A laptop offline overnight or through a flight goes on by itself
   * when the network is back, while a download that can never go on (the host is gone, the network
   * blocks it) ends as `failed` within a day instead of holding a slot silently forever; its bytes
   * are kept for the next try of the same URL. The clock is monotonic, so it does not run while the
   * machine sleeps, and each start of Parley starts it again.
   */
  giveUpAfterMs?: number;
  /** Back-off, stall watchdog and progress cadence; tests drive fakes by hand. */
  timers?: DownloadTimers;
  /** Free bytes on the file system of a folder (null: unknown); `fs.statfs` by default. */
  freeBytes?: (dir: string) => Promise<number | null>;
  /** Whether a URL's host answers now (a TCP connection opens), asked while waiting for the network. */
  reachable?: (url: string) => Promise<boolean>;
  /** With other instances on the database: each download is run by one of them. */
  claims?: WorkClaims;
  /** How a cancel reaches the instance running the download (`download.cancel`). */
  notices?: NoticesPort;
  /** Downloads that run at once; the others wait `queued`. */
  concurrency?: number;
  log?: Logger | undefined;
  /** A model was moved into the models folder (the local models rescan, and may pick it as the embedder). */
  onInstalled?: () => void;
}

export type { DownloadView };

const FINAL = new Set(['complete', 'failed', 'cancelled']);
/** Progress is written to the database at most this often (the part file's size is the truth). */
const PERSIST_EVERY_BYTES = 4 << 20;
const PERSIST_EVERY_MS = 1000;

/** A failure no retry can cure: the download fails with this sentence (its bytes are kept). */
class Fatal extends Error {}
/** What arrived is not the file wanted (not GGUF, a checksum mismatch): its bytes are worthless. */
class WrongFile extends Fatal {}
/** The server answered with a status that may pass (5xx, 429): retried a bounded number of times. */
class ServerFailed extends Error {}

/** The server sent everything it had (or said the range is already complete). */
type Outcome = { kind: 'done' } | { kind: 'restart'; reason: string };

interface Running {
  controller: AbortController;
  /** Why it was stopped: the user cancelled, or the service is shutting down (resumed at the next start). */
  stoppedBy: 'cancel' | 'shutdown' | null;
  done: Promise<void>;
}

const seconds = (ms: number) => Math.ceil(ms / 1000);
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

const formatDuration = (ms: number) => (ms >= 3600_000 ? `${+(ms / 3600_000).toFixed(1)} h` : ms >= 60_000 ? `${+(ms / 60_000).toFixed(1)} min` : `${seconds(ms)} s`);

const reasonOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const base = errorText(error);
  return cause?.code ? `${base} (${cause.code})` : cause?.message ? `${base}: ${cause.message}` : base;
};

/**
 * Model downloads: each streams into `downloads/<id>.part`, resumes with `Range` after a network
 * failure (with back-off, for as long as `giveUpAfterMs`) or a restart (rows not yet final are
 * picked up by `resume()`), is checked for the GGUF magic and its SHA-256, and is then moved into
 * `models/` without overwriting anything. The part file goes only when the user cancels or the
 * bytes are proven wrong; a download that failed otherwise leaves it for the next download of the
 * same URL to go on from.
 */
export class ModelDownloads implements ModelDownloadsPort {
  private readonly repo: ModelDownloadsRepo;
  private readonly dataDir: string;
  private readonly fetchImpl: Fetch;
  private readonly backoff: (attempt: number) => number;
  private readonly maxRetries: number;
  private readonly concurrency: number;
  private readonly stallMs: number;
  private readonly giveUpAfterMs: number;
  private readonly timers: DownloadTimers;
  private readonly freeBytes: (dir: string) => Promise<number | null>;
  private readonly reachable: (url: string) => Promise<boolean>;
  /** When downloads waiting after a network failure try again (ISO time). */
  private readonly retryAt = new Map<string, string>();
  private readonly running = new Map<string, Running>();
  /** Bytes on disk of running downloads, fresher than the database. */
  private readonly progress = new Map<string, number>();
  private readonly queue: string[] = [];
  private stopped = false;

  constructor(private readonly options: DownloadsOptions) {
    this.repo = options.repo;
    this.dataDir = options.dataDir;
    this.fetchImpl = options.fetch ?? fetch;
    this.backoff = options.backoffMs ?? defaultBackoff;
    this.maxRetries = options.maxRetries ?? 8;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.stallMs = options.stallMs ?? 30_000;
    this.giveUpAfterMs = options.giveUpAfterMs ?? 24 * 3600_000;
    this.timers = options.timers ?? realTimers;
    this.freeBytes = options.freeBytes ?? freeBytesOf;
    this.reachable = options.reachable ?? ((url) => hostAnswers(url));
    options.notices?.on('download.cancel', (id) => this.stopHere(id));
  }

  get modelsDir(): string {
    return modelsDir(this.dataDir);
  }

  /** A row as callers see it: the live byte count while it runs. */
  view(row: ModelDownloadRecord): DownloadView {
    const live = this.progress.get(row.id);
    return { ...row, bytes_done: live ?? row.bytes_done, retry_at: this.retryAt.get(row.id) ?? null };
  }

  list(): DownloadView[] {
    return this.repo.list().map((r) => this.view(r));
  }

  get(id: string): DownloadView {
    const row = this.repo.get(id);
    if (!row) throw new ServiceError('not_found', `There is no download ${id}.`);
    return this.view(row);
  }

  /** Queues a download; answers at once. The same URL or file name twice at a time is refused. */
  start(input: InputOf<'models.downloads.create'>, userId: string | null): DownloadView {
    if (this.stopped) throw new ServiceError('unavailable', 'Parley is shutting down.');
    refuseCredentials(input.url);
    const id = newId('dl');
    const fileName = fileNameFor(input.url, input.name, `model-${id}`);
    for (const other of this.repo.active()) {
      if (other.url === input.url) throw new ServiceError('conflict', `This URL is already being downloaded (${other.id}).`);
      if (other.file_name.toLowerCase() === fileName.toLowerCase()) throw new ServiceError('conflict', `A download to ${fileName} is already running (${other.id}); give this one another name.`);
    }
    this.repo.insert({ id, url: input.url, file_name: fileName, sha256_expected: input.sha256 ?? null, sha256_source: input.sha256 ? 'given' : null, created_by: userId, now: this.now() });
    (this.options.claims ?? ALONE).claim(id);
    this.adoptEarlierBytes(id, input.url);
    this.enqueue(id);
    return this.get(id);
  }

  /** Cancels a download not yet final: it stops, and its part file is removed. */
  cancel(id: string): DownloadView {
    const row = this.get(id);
    if (FINAL.has(row.status)) throw new ServiceError('conflict', `This download is already ${row.status}; there is nothing to cancel.`);
    this.update(id, { status: 'cancelled', error: null, bytes_done: row.bytes_done });
    // Another live instance runs it: that one stops it and removes the part file it is writing.
    if ((this.options.claims ?? ALONE).heldElsewhere(id)) this.options.notices?.publish('download.cancel', id);
    else this.stopHere(id);
    return this.get(id);
  }

  /** Stops a cancelled download if it runs (or waits) here; its part file goes. */
  private stopHere(id: string): void {
    const running = this.running.get(id);
    if (running) {
      running.stoppedBy = 'cancel';
      running.controller.abort();
    } else {
      const queued = this.queue.indexOf(id);
      if (queued < 0 && this.repo.get(id)?.status !== 'cancelled') return;
      if (queued >= 0) this.queue.splice(queued, 1);
      removeQuietly(partPath(this.dataDir, id));
    }
    this.progress.delete(id);
    this.retryAt.delete(id);
  }

  /**
   * A failed download of the same URL left its bytes: this one goes on from them. `If-Range` with
   * the earlier validator makes the server send the whole file again if it changed meanwhile.
   */
  private adoptEarlierBytes(id: string, url: string): void {
    const earlier = this.repo.list().find((r) => r.id !== id && r.url === url && r.status === 'failed' && sizeOf(partPath(this.dataDir, r.id)) > 0);
    if (!earlier) return;
    try {
      renameSync(partPath(this.dataDir, earlier.id), partPath(this.dataDir, id));
    } catch {
      return; // gone meanwhile, or not movable: this download starts from the first byte
    }
    const bytes = sizeOf(partPath(this.dataDir, id));
    this.update(earlier.id, { bytes_done: 0 });
    this.update(id, { bytes_done: bytes, bytes_total: earlier.bytes_total, validator: earlier.validator, resumes: 1 });
  }

  /**
   * Start-up, then every heartbeat: picks up the unfinished downloads nobody live runs (a previous
   * run's, or a dead instance's); answers how many.
   */
  resume(): number {
    if (this.stopped) return 0;
    const claims = this.options.claims ?? ALONE;
    const free = this.repo.active().filter((row) => !this.running.has(row.id) && !this.queue.includes(row.id) && claims.claim(row.id));
    const rows = free.filter((row) => {
      // Stored before credentials were refused: never sent again.
      if (urlHasCredentials(row.url)) this.update(row.id, { status: 'failed', error: CREDENTIALS_NOT_RESUMED });
      return !urlHasCredentials(row.url);
    });
    for (const row of rows) {
      const onDisk = sizeOf(partPath(this.dataDir, row.id));
      this.update(row.id, { status: 'queued', bytes_done: onDisk, resumes: onDisk > 0 ? row.resumes + 1 : row.resumes });
      this.enqueue(row.id);
    }
    return rows.length;
  }

  /** Stops every download where it stands (the part files stay): the next start resumes them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    const all = [...this.running.values()];
    for (const r of all) {
      r.stoppedBy ??= 'shutdown';
      r.controller.abort();
    }
    await Promise.all(all.map((r) => r.done));
  }

  /** Resolves once no download runs or waits (tests, and a clean shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private now(): string {
    return this.options.now().toISOString();
  }

  private limits(): DownloadLimits {
    return limitsOf((this.options.config?.() ?? DEFAULT_CONFIG).local_models);
  }

  private update(id: string, patch: DownloadPatch): void {
    // After stop() the database may be closing: what is on disk is what the next start resumes from.
    if (this.stopped && patch.status !== undefined && patch.status !== 'cancelled') return;
    try {
      this.repo.update(id, patch, this.now());
    } catch (error) {
      if (!this.stopped) throw error;
    }
  }

  private enqueue(id: string): void {
    if (!this.queue.includes(id)) this.queue.push(id);
    this.pump();
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift() as string;
      const running: Running = { controller: new AbortController(), stoppedBy: null, done: Promise.resolve() };
      this.running.set(id, running);
      running.done = this.run(id, running).finally(() => {
        (this.options.claims ?? ALONE).release(id);
        this.running.delete(id);
        this.progress.delete(id);
        this.retryAt.delete(id);
        this.pump();
      });
    }
  }

  private async run(id: string, running: Running): Promise<void> {
    const part = partPath(this.dataDir, id);
    try {
      await this.transfer(id, part, running.controller.signal);
      if (running.controller.signal.aborted) throw new Error('stopped');
      await this.verifyAndInstall(id, part, running.controller.signal);
    } catch (error) {
      if (running.stoppedBy === 'shutdown') return;
      if (running.stoppedBy === 'cancel') {
        removeQuietly(part);
        return;
      }
      if (error instanceof WrongFile) removeQuietly(part);
      const kept = sizeOf(part);
      const reason = sentence(error instanceof Fatal ? error.message : `The download failed: ${reasonOf(error)}`);
      const note = kept > 0 ? ` The ${formatBytes(kept)} downloaded so far are kept: download the same URL again to go on from there.` : '';
      this.update(id, { status: 'failed', error: reason + note, bytes_done: kept });
    }
  }

  /**
   * Gets every byte into the part file, resuming and retrying as needed: network failures with
   * back-off until `giveUpAfterMs` passes without a byte, server failures `maxRetries` times.
   */
  private async transfer(id: string, part: string, signal: AbortSignal): Promise<void> {
    try {
      ensurePrivateDir(downloadsDir(this.dataDir));
    } catch (error) {
      throw new Fatal(describeDiskError(error, 'the downloads folder'));
    }
    let serverFailures = 0;
    let networkFailures = 0;
    let lastByteAt = this.timers.now();
    for (;;) {
      const before = sizeOf(part);
      let wait: number;
      // Waiting for the network (not for a server that answers with errors): go on as soon as it is back.
      let forNetwork = false;
      try {
        const outcome = await this.attempt(id, part, signal);
        if (outcome.kind === 'done') return;
        // The server's file changed or it ignored the range: start over from the first byte.
        removeQuietly(part);
        serverFailures++;
        if (serverFailures > this.maxRetries) throw new Fatal('The server kept sending a different file; the download was stopped.');
        wait = this.backoff(serverFailures);
        this.update(id, { bytes_done: 0, validator: null, error: outcome.reason });
      } catch (error) {
        if (signal.aborted || error instanceof Fatal) throw error;
        if (error instanceof DownloadRefused) throw new Fatal(error.message);
        if (sizeOf(part) > before) {
          serverFailures = 0;
          networkFailures = 0;
          lastByteAt = this.timers.now();
        }
        const reason = reasonOf(error);
        let note: string;
        if (error instanceof ServerFailed) {
          serverFailures++;
          if (serverFailures > this.maxRetries) throw new Fatal(`The download failed after ${this.maxRetries} retries: ${reason}`);
          wait = this.backoff(serverFailures);
          note = `The server failed (${reason}); retrying in ${seconds(wait)} s.`;
        } else {
          if (this.timers.now() - lastByteAt >= this.giveUpAfterMs) {
            throw new Fatal(`No byte arrived for ${formatDuration(this.giveUpAfterMs)} (${reason}); the download was stopped.`);
          }
          networkFailures++;
          wait = this.backoff(networkFailures);
          forNetwork = true;
          note = `The connection failed (${reason}); waiting for the network, retrying in ${seconds(wait)} s.`;
        }
        this.retryAt.set(id, new Date(this.options.now().getTime() + wait).toISOString());
        this.update(id, { error: note, bytes_done: sizeOf(part) });
      }
      const url = this.repo.get(id)?.url;
      if (forNetwork && url) await sleepUntilReachable(this.timers, wait, signal, () => this.reachable(url));
      else await sleep(this.timers, wait, signal);
      this.retryAt.delete(id);
      if (signal.aborted) throw new Error('stopped');
      const row = this.repo.get(id);
      if (sizeOf(part) > 0 && row) this.update(id, { resumes: row.resumes + 1 });
    }
  }

  /**
   * One request from the part file's end to the end of the file, dropped when no byte arrives for
   * `stallMs` (before the headers or within the body): the retry resumes from what did arrive.
   */
  private async attempt(id: string, part: string, signal: AbortSignal): Promise<Outcome> {
    const connection = new AbortController();
    const drop = () => connection.abort();
    signal.addEventListener('abort', drop, { once: true });
    const watchdog = new Watchdog(this.timers, this.stallMs, drop);
    try {
      return await this.request(id, part, signal, connection.signal, watchdog);
    } catch (error) {
      if (watchdog.fired && !signal.aborted && !(error instanceof Fatal)) throw new Error(`no byte arrived for ${seconds(this.stallMs)} s, so the connection was dropped`);
      throw error;
    } finally {
      watchdog.stop();
      signal.removeEventListener('abort', drop);
    }
  }

  /** `signal` stops the download; `connection` (which it also aborts) cuts this request. */
  private async request(id: string, part: string, signal: AbortSignal, connection: AbortSignal, watchdog: Watchdog): Promise<Outcome> {
    const row = this.repo.get(id);
    if (!row) throw new Fatal('The download record is gone.');
    const offset = sizeOf(part);
    this.update(id, { status: 'downloading', bytes_done: offset });
    this.progress.set(id, offset);
    const { response, statedSha256, linkedSize } = await requestRange(this.fetchImpl, row.url, offset, offset > 0 ? row.validator : null, connection);
    watchdog.touch();

    if (response.status === 416 && offset > 0) {
      await response.body?.cancel();
      const actual = unsatisfiedRangeTotal(response.headers.get('content-range'));
      // The file ends where the bytes we have end, short of the size it stated: it lied.
      if (actual === offset && row.bytes_total !== null && row.bytes_total > offset) throw new WrongFile(endedShortOfStated(row.bytes_total, offset));
      const total = actual ?? row.bytes_total;
      if (total !== null && total === offset) return { kind: 'done' };
      return { kind: 'restart', reason: 'The server no longer has the bytes asked for; starting again.' };
    }
    if (isRetryableStatus(response.status)) {
      await response.body?.cancel();
      throw new ServerFailed(`the server answered ${response.status} ${response.statusText}`.trim());
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      throw new Fatal(`The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: it does not offer this file.`);
    }

    let start = 0;
    let total: number | null = null;
    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('content-range'));
      if (!range || range.start !== offset) {
        await response.body?.cancel();
        return { kind: 'restart', reason: 'The server answered another range than the one asked for; starting again.' };
      }
      // The same file (If-Range held) cannot change its size between two answers: a resumed answer
      // giving another total than the one stated before means one of them lied.
      if (range.total !== null && row.bytes_total !== null && range.total !== row.bytes_total) {
        await response.body?.cancel();
        throw new WrongFile(range.total < row.bytes_total ? endedShortOfStated(row.bytes_total, range.total) : sentMoreThanStated(row.bytes_total));
      }
      start = offset;
      total = range.total;
    } else {
      const length = Number(response.headers.get('content-length'));
      total = Number.isSafeInteger(length) && response.headers.has('content-length') ? length : null;
    }
    total ??= linkedSize;
    const limits = this.limits();
    if (total !== null && total > limits.maxBytes) {
      await response.body?.cancel();
      throw new Fatal(tooLargeStated(total, limits));
    }
    await this.checkFreeSpace(response, total === null ? null : total - start, limits);

    const patch: DownloadPatch = { bytes_total: total, validator: validatorOf(response) ?? row.validator, error: null };
    if (row.sha256_source !== 'given' && statedSha256) {
      patch.sha256_expected = statedSha256;
      patch.sha256_source = 'server';
    }
    this.update(id, patch);
    return this.receive(id, part, response, { start, total, limits }, signal, watchdog);
  }

  /**
   * Refuses to write a byte when the rest of the file cannot fit above the reserve (the bytes
   * already there stay); `needed` null (no size stated) checks the reserve alone.
   */
  private async checkFreeSpace(response: Response | null, needed: number | null, limits: DownloadLimits): Promise<void> {
    if (needed !== null && needed <= 0) return;
    const dir = downloadsDir(this.dataDir);
    const problem = noRoom(await this.freeBytes(dir), needed, limits, dir);
    if (problem === null) return;
    await response?.body?.cancel();
    throw new Fatal(problem);
  }

  /**
   * Streams the body into the part file from `start`, checking the GGUF magic at the head, and
   * holding the server to the size it stated, the size cap and the free-space reserve as it goes.
   */
  private async receive(id: string, part: string, response: Response, bounds: { start: number; total: number | null; limits: DownloadLimits }, signal: AbortSignal, watchdog: Watchdog): Promise<Outcome> {
    if (!response.body) throw new Error('the server sent no body');
    const { start, total, limits } = bounds;
    let handle: FileHandle;
    try {
      handle = await open(part, start === 0 ? 'w' : 'r+', PRIVATE_FILE);
      // A part file left by an earlier version may be readable by others: made private before a byte more.
      if (process.platform !== 'win32') await handle.chmod(PRIVATE_FILE);
    } catch (error) {
      await response.body.cancel();
      throw new Fatal(describeDiskError(error, 'the temporary download file'));
    }
    let position = start;
    let head = Buffer.alloc(0);
    let persistedAt = position;
    let persistedTime = this.timers.now();
    let spaceCheckedAt = position;
    try {
      for await (const chunk of response.body) {
        watchdog.touch();
        if (signal.aborted) break;
        const bytes = Buffer.from(chunk);
        // Checked before writing: a byte past the stated size or the cap never reaches the disk.
        if (total !== null && position + bytes.length > total) throw new WrongFile(sentMoreThanStated(total));
        if (position + bytes.length > limits.maxBytes) throw new WrongFile(tooLargeSent(limits));
        if (position + bytes.length - spaceCheckedAt >= SPACE_CHECK_EVERY_BYTES) {
          await this.checkFreeSpace(null, null, limits);
          spaceCheckedAt = position;
        }
        if (position < GGUF_MAGIC.length) {
          head = Buffer.concat([head, bytes]).subarray(0, GGUF_MAGIC.length);
          if (head.length === GGUF_MAGIC.length && !head.equals(GGUF_MAGIC)) {
            throw new WrongFile('This is not a GGUF model file (it does not start with the GGUF magic bytes). Download the .gguf file itself, not a web page about it.');
          }
        }
        try {
          await handle.write(bytes, 0, bytes.length, position);
        } catch (error) {
          throw new Fatal(describeDiskError(error, 'the downloaded model'));
        }
        position += bytes.length;
        this.progress.set(id, position);
        if (position - persistedAt >= PERSIST_EVERY_BYTES || this.timers.now() - persistedTime >= PERSIST_EVERY_MS) {
          this.update(id, { bytes_done: position });
          persistedAt = position;
          persistedTime = this.timers.now();
        }
      }
    } finally {
      await handle.close().catch(() => {});
      this.update(id, { bytes_done: position });
    }
    if (signal.aborted) throw new Error('stopped');
    if (total !== null && position < total) throw new Error(`the connection ended after ${position} of ${total} bytes`);
    if (position < GGUF_MAGIC.length) throw new WrongFile('The server sent an empty or truncated file: it is not a GGUF model.');
    return { kind: 'done' };
  }

  private async verifyAndInstall(id: string, part: string, signal: AbortSignal): Promise<void> {
    this.update(id, { status: 'verifying', bytes_done: sizeOf(part) });
    if (!(await startsWithGguf(part))) throw new WrongFile('This is not a GGUF model file (it does not start with the GGUF magic bytes).');
    const sha256 = await sha256OfFile(part, signal);
    const row = this.repo.get(id);
    if (!row) throw new Fatal('The download record is gone.');
    if (row.sha256_expected && row.sha256_expected !== sha256) {
      const from = row.sha256_source === 'given' ? 'the checksum given' : 'the checksum the server stated';
      throw new WrongFile(`Checksum mismatch: the file's SHA-256 is ${sha256}, not ${row.sha256_expected} (${from}). The file was corrupted or is not the one expected; it was removed.`);
    }
    // Cancelled while hashing: nothing goes into models/.
    if (signal.aborted) throw new Error('stopped');
    try {
      mkdirSync(this.modelsDir, { recursive: true, mode: 0o700 });
      const installed = await installFile(part, this.modelsDir, row.file_name, sha256);
      this.update(id, {
        status: 'complete',
        sha256,
        file_name: installed.fileName,
        bytes_done: row.bytes_total ?? sizeOf(`${this.modelsDir}/${installed.fileName}`),
        error: null,
      });
      this.options.onInstalled?.();
    } catch (error) {
      throw new Fatal(describeDiskError(error, 'the models folder'));
    }
  }
}
