/**
 * `parseDocument`: bytes → blocks, in a worker thread with a size and a time limit. A parser that
 * runs over its time (a pathological PDF, a catastrophic regex) is terminated with its thread, so
 * the pipeline and the API never stall; a parser that crashes or runs out of memory takes only its
 * thread down. Workers are kept warm between files and closed when idle.
 *
 * The worker script is `parse-worker.js` beside this module once bundled (dist/main/), else — run
 * from source under vitest or tsx — `parse-worker-dev.mjs`, which loads `parse-worker.ts` through
 * tsx. `PARLEY_PARSE_WORKER` (a path) overrides both.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parserFor } from './parsers/index.js';
import { IngestError, type ParsedDocument } from './types.js';
import type { ParseRequest, WorkerMessage } from './worker-protocol.js';

export interface ParseInput {
  bytes: Buffer;
  mime: string;
  filename: string;
}

export interface ParseLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Test hook: with `PARLEY_INGEST_TEST_HOOKS=1` in the environment, this type makes the worker spin
 * forever, as a parser stuck on a pathological file would (the timeout must end it).
 */
export const TEST_HANG_MIME = 'application/x-parley-test-hang';

const MAX_WORKERS = 2;
const IDLE_CLOSE_MS = 30_000;
const START_TIMEOUT_MS = 60_000;
/** Heap of one worker: a runaway parse fails on its own instead of taking the app down. */
const WORKER_HEAP_MB = 4096;

function workerScript(): URL {
  // An explicit location wins: a packaged app whose worker sits elsewhere (outside an asar), benchmarks of the build.
  const override = process.env.PARLEY_PARSE_WORKER;
  if (override) return pathToFileURL(override);
  const built = new URL('./parse-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  return new URL('./parse-worker-dev.mjs', import.meta.url);
}

class ParserWorker {
  readonly worker: Worker;
  readonly ready: Promise<void>;
  busy = false;
  dead = false;
  idleTimer: NodeJS.Timeout | null = null;

  constructor() {
    const script = workerScript();
    if (!existsSync(fileURLToPath(script))) throw new Error(`the parser worker script is missing (${fileURLToPath(script)})`);
    this.worker = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.worker.unref();
    this.worker.on('exit', () => {
      this.dead = true;
    });
    // Errors are reported to the job that is running (see run); this keeps one with no job from being unhandled.
    this.worker.on('error', () => {
      this.dead = true;
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`it did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== 'ready') return;
        cleanup();
        resolve();
      };
      const fail = (error: Error) => {
        cleanup();
        this.dead = true;
        void this.worker.terminate();
        reject(error);
      };
      const onError = (error: Error) => fail(error);
      const onExit = (code: number) => fail(new Error(`it exited with code ${code}`));
      const cleanup = () => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
    });
    // A failed start is reported to whoever waits for `ready`.
    this.ready.catch(() => undefined);
  }

  /** Runs one request; resolves with the worker's answer or how the run ended. */
  run(request: ParseRequest, timeoutMs: number, transfer: ArrayBuffer[]): Promise<WorkerMessage | { type: 'timeout' } | { type: 'crash'; error: Error }> {
    return new Promise((resolve) => {
      const finish = (outcome: WorkerMessage | { type: 'timeout' } | { type: 'crash'; error: Error }) => {
        clearTimeout(timer);
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'result' && message.id === request.id) finish(message);
      };
      const onError = (error: Error) => finish({ type: 'crash', error });
      const onExit = (code: number) => finish({ type: 'crash', error: new Error(`the parser stopped (exit code ${code})`) });
      const timer = setTimeout(() => finish({ type: 'timeout' }), timeoutMs);
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
      this.worker.postMessage(request, transfer);
    });
  }
}

const workers: ParserWorker[] = [];
const waiting: (() => void)[] = [];
let nextId = 1;

function retire(slot: ParserWorker): void {
  slot.dead = true;
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  const at = workers.indexOf(slot);
  if (at !== -1) workers.splice(at, 1);
  void slot.worker.terminate().catch(() => undefined);
  waiting.shift()?.();
}

async function acquire(): Promise<ParserWorker> {
  for (;;) {
    // Workers that died while idle (killed, crashed) leave their place to new ones.
    for (const slot of workers.filter((w) => w.dead && !w.busy)) retire(slot);
    const idle = workers.find((w) => !w.busy && !w.dead);
    if (idle) {
      idle.busy = true;
      if (idle.idleTimer) clearTimeout(idle.idleTimer);
      idle.idleTimer = null;
      return idle;
    }
    if (workers.length < MAX_WORKERS) {
      const slot = new ParserWorker();
      slot.busy = true;
      workers.push(slot);
      return slot;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(slot: ParserWorker): void {
  slot.busy = false;
  if (slot.dead) {
    retire(slot);
    return;
  }
  slot.idleTimer = setTimeout(() => {
    if (!slot.busy) retire(slot);
  }, IDLE_CLOSE_MS);
  slot.idleTimer.unref();
  waiting.shift()?.();
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(ms < 1000 ? 3 : 1)));
}

/**
 * Parses a file into blocks. Rejects only with an `IngestError`: `too_large` over `maxBytes`,
 * `unsupported_media_type` for a type no parser reads, `parse_error` for a corrupt file, a parser
 * that took longer than `timeoutMs` or crashed, `empty` for a file without text.
 */
export async function parseDocument(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  const { bytes, mime, filename } = input;
  if (bytes.length > limits.maxBytes) {
    throw new IngestError('too_large', `The file is ${bytes.length} bytes, over the limit of ${limits.maxBytes} bytes.`);
  }
  const hang = mime === TEST_HANG_MIME && process.env.PARLEY_INGEST_TEST_HOOKS === '1';
  if (!hang && !parserFor(mime)) throw new IngestError('unsupported_media_type', `${mime || 'This type'} files cannot be read.`);
  if (bytes.length === 0) throw new IngestError('empty', 'The file is empty.');

  let slot: ParserWorker;
  try {
    slot = await acquire();
  } catch (error) {
    throw new IngestError('parse_error', `The parser could not start: ${error instanceof Error ? error.message : String(error)}.`);
  }
  try {
    await slot.ready;
  } catch (error) {
    retire(slot);
    throw new IngestError('parse_error', `The parser could not start: ${error instanceof Error ? error.message : String(error)}.`);
  }
  // One copy into a buffer of its own, moved (not cloned) to the worker.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  const request: ParseRequest = { id: nextId++, bytes: copy, mime, filename };
  if (hang) request.hang = true;
  const outcome = await slot.run(request, Math.max(1, limits.timeoutMs), [copy.buffer]);
  if (outcome.type === 'result') {
    release(slot);
    if (outcome.ok) return outcome.doc;
    throw new IngestError(outcome.code, outcome.detail);
  }
  retire(slot);
  if (outcome.type === 'timeout') throw new IngestError('parse_error', `Parsing took longer than ${seconds(limits.timeoutMs)} s and was stopped.`);
  const reason = outcome.type === 'crash' ? outcome.error : new Error('no answer');
  const oom = 'code' in reason && reason.code === 'ERR_WORKER_OUT_OF_MEMORY';
  throw new IngestError('parse_error', oom ? 'Parsing ran out of memory and was stopped.' : `The parser failed: ${reason.message}.`);
}

/** Stops every parser worker (shutdown, tests). Parses in progress fail with `parse_error`. */
export async function closeParserWorkers(): Promise<void> {
  const all = workers.splice(0);
  await Promise.all(
    all.map(async (slot) => {
      slot.dead = true;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      await slot.worker.terminate().catch(() => undefined);
    }),
  );
}
