/**
 * Keyword ranking in a worker thread of its own, on its own read-only connection to the database,
 * so that hybrid search runs its two halves at once on two cores: the keyword half here, the
 * question's embedding and the vector graphs on the calling thread. better-sqlite3 and hnswlib are
 * both synchronous, so on one thread the halves add up (hybrid ≈ keyword + vector). WAL lets the
 * worker read committed chunks while the app writes; it reads what the calling thread would.
 *
 * Whenever the worker cannot rank at once, the caller ranks in place, as it did before this
 * thread existed: while the worker starts (the first search starts it), while it ranks another
 * question (two searches at once then use both cores), and once it has failed or closed.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { KEYWORD_DEFAULTS, type KeywordOptions } from './plan.js';
import type { KeywordRanking } from './keyword.js';

/** What the worker starts with. */
export interface KeywordWorkerData {
  file: string;
  nativeBinding?: string | undefined;
}

export type KeywordWorkerRequest = { id: number; kb_ids: string[]; text: string; limit: number; options: KeywordOptions };

export type KeywordWorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; reason: string }
  | { type: 'ranked'; id: number; ranking: KeywordRanking }
  | { type: 'error'; id: number; reason: string };

export interface KeywordThreadOptions extends KeywordWorkerData {
  log?: (line: string) => void;
}

/** The worker's script: built beside this module (dist/main/), else — from source under vitest or tsx — a small .mjs that loads the TypeScript through tsx. */
function workerScript(): string {
  const built = fileURLToPath(new URL('./keyword-worker.js', import.meta.url));
  if (existsSync(built)) return built;
  return fileURLToPath(new URL('./keyword-worker-dev.mjs', import.meta.url));
}

/** Only the keyword options (plain numbers): a caller's options may hold functions, which a worker cannot receive. */
function keywordOptions(options: KeywordOptions): KeywordOptions {
  const picked: Record<string, number> = {};
  for (const key of Object.keys(KEYWORD_DEFAULTS) as Array<keyof KeywordOptions>) {
    const value = options[key];
    if (typeof value === 'number') picked[key] = value;
  }
  return picked;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class KeywordThread {
  private state: 'idle' | 'starting' | 'ready' | 'failed' | 'closed' = 'idle';
  private worker: Worker | undefined;
  private starting: Promise<boolean> | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (ranking: KeywordRanking | undefined) => void>();
  private errorSaid = false;
  /** Rankings the worker answered (the rest ranked in place). */
  served = 0;

  constructor(private readonly options: KeywordThreadOptions) {}

  private log(line: string): void {
    (this.options.log ?? ((text: string) => console.warn(text)))(line);
  }

  /** Starts the worker, once; resolves with whether it ranks (false once it failed or closed). */
  start(): Promise<boolean> {
    if (this.state === 'closed' || this.state === 'failed') return Promise.resolve(false);
    this.starting ??= new Promise<boolean>((resolve) => {
      if (this.state !== 'idle') return resolve(false);
      this.state = 'starting';
      let worker: Worker;
      try {
        worker = new Worker(workerScript(), { workerData: { file: this.options.file, nativeBinding: this.options.nativeBinding } satisfies KeywordWorkerData });
      } catch (error) {
        this.fail(errorText(error));
        return resolve(false);
      }
      // Idle, it keeps no process alive; a ranking under way does (rank() refs it).
      worker.unref();
      this.worker = worker;
      worker.on('message', (message: KeywordWorkerMessage) => {
        if (message.type === 'ready') {
          if (this.state === 'starting') this.state = 'ready';
          resolve(this.state === 'ready');
        } else if (message.type === 'failed') {
          this.fail(message.reason);
          resolve(false);
        } else if (message.type === 'ranked') {
          this.served++;
          this.settle(message.id, message.ranking);
        } else {
          if (!this.errorSaid) this.log(`[retrieval] keyword ranking failed in its thread (${message.reason}): ranked on the main thread instead`);
          this.errorSaid = true;
          this.settle(message.id, undefined);
        }
      });
      worker.once('error', (error) => {
        this.fail(error.message);
        resolve(false);
      });
      worker.once('exit', (code) => {
        this.fail(`it stopped with exit code ${code}`);
        resolve(false);
      });
    });
    return this.starting;
  }

  /**
   * The best `limit` chunks of `kbIds` for `text`, ranked in the worker; undefined when the worker
   * cannot rank at once (see the top of this file): the caller then ranks in place. Never rejects.
   */
  rank(kbIds: readonly string[], text: string, limit: number, options: KeywordOptions = {}): Promise<KeywordRanking | undefined> | undefined {
    if (this.state === 'idle') void this.start();
    const worker = this.worker;
    if (this.state !== 'ready' || !worker || this.waiting.size > 0) return undefined;
    const id = this.nextId++;
    const request: KeywordWorkerRequest = { id, kb_ids: [...kbIds], text, limit, options: keywordOptions(options) };
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.ref();
      worker.postMessage(request);
    });
  }

  private settle(id: number, ranking: KeywordRanking | undefined): void {
    const resolve = this.waiting.get(id);
    if (!resolve) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
    resolve(ranking);
  }

  /** The worker is gone for good: what it was asked is ranked in place, and so is everything after. */
  private fail(reason: string): void {
    if (this.state === 'failed' || this.state === 'closed') return;
    this.state = 'failed';
    this.log(`[retrieval] the keyword search thread stopped (${reason}): keyword ranking runs on the main thread`);
    this.release();
  }

  private release(): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of waiting) resolve(undefined);
  }

  /** Stops the worker (shutdown, before the database closes); searches after this rank in place. */
  async close(): Promise<void> {
    this.state = 'closed';
    this.release();
    const worker = this.worker;
    this.worker = undefined;
    // Read-only: nothing it holds can be lost.
    if (worker) await worker.terminate();
  }
}
