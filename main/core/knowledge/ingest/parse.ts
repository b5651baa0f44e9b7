/**
 * `parseDocument` / `parseAndChunk`: bytes → blocks (→ chunks), in a child process with a size, a
 * time and a memory limit. A parser that runs over its time (a pathological PDF) or its memory (a
 * zip bomb, millions of paragraphs) is killed with its process, so the pipeline and the API never
 * stall and the app's own memory never grows with a hostile file; a parser that crashes takes only
 * its process down. Memory is bounded twice: V8's heap by `--max-old-space-size`, and everything
 * else (inflated buffers live outside the heap) by a watchdog that reads the child's resident size
 * (Linux: /proc/<pid>/status, elsewhere the child's own report) and kills it over the ceiling.
 * Processes are kept warm between files and closed when idle.
 *
 * The script is `parse-worker.js` beside this module once bundled (dist/main/), else — run from
 * source under vitest or tsx — `parse-worker-dev.mjs`, which loads `parse-worker.ts` through tsx.
 * `PARLEY_PARSE_WORKER` (a path) overrides both.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { chunkBatches } from './chunk-batches.js';
import { chunkDocument } from './chunk.js';
import { parserKind } from './parsers/kinds.js';
import { joinPdfParts, PDF_PART_MAX_CHARS, PDF_SPLIT_MIN_PAGES, pdfPageRanges } from './pdf-split.js';
import { IngestError, type Chunk, type ParsedDocument } from './types.js';
import type { ParseRequest, WorkerMessage } from './worker-protocol.js';
import { errorText } from '../../../../shared/errors.js';
import { workerScript } from '../../../launch/worker-script.js';

export interface ParseInput {
  bytes: Buffer;
  mime: string;
  filename: string;
}

export interface ParseLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Resident memory the parser process may use, in MB (`[uploads] parse_memory_mb`). */
  memoryMb?: number;
  /** Text one part of a split PDF may hand back (default `PDF_PART_MAX_CHARS`); beyond it the file is read whole by one process. */
  pdfPartMaxChars?: number;
  /** Cancels the parse: its parser process is stopped at once, and it rejects with `cancelled`. */
  signal?: AbortSignal;
}

/**
 * Test hooks: with `PARLEY_INGEST_TEST_HOOKS=1` in the environment, these types make the parser
 * spin forever (the timeout must end it) or allocate memory outside the V8 heap without end (the
 * memory ceiling must end it), as a parser stuck on a hostile file would.
 */
export const TEST_HANG_MIME = 'application/x-parley-test-hang';
export const TEST_BALLOON_MIME = 'application/x-parley-test-balloon';

export const DEFAULT_PARSE_MEMORY_MB = 512;
/**
 * Parser processes kept at most: one per core (at least 2, so one slow file never holds up the
 * next; at most 4, each may take `parse_memory_mb`). The ingest queue runs as many files at once.
 */
export const PARSE_POOL_SIZE = Math.min(4, Math.max(2, availableParallelism()));
const IDLE_CLOSE_MS = 30_000;
const START_TIMEOUT_MS = 60_000;
const WATCH_INTERVAL_MS = 50;
const STDERR_KEEP = 4096;

/** An explicit location wins: a packaged app whose worker sits elsewhere (outside an asar), benchmarks of the build. */
const parserScript = (): string => process.env.PARLEY_PARSE_WORKER || workerScript(import.meta.url, 'parse-worker');

/** Resident set size of a process in bytes (Linux), or null where /proc cannot say. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

type Outcome = WorkerMessage | { type: 'timeout' } | { type: 'cancelled' } | { type: 'memory'; rss: number } | { type: 'crash'; error: Error };

class ParserProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly memoryMb: number;
  busy = false;
  dead = false;
  idleTimer: NodeJS.Timeout | null = null;
  /** Highest resident size seen during the last job. */
  peakRss = 0;
  private stderr = '';

  constructor(memoryMb: number) {
    this.memoryMb = memoryMb;
    const script = parserScript();
    if (!existsSync(script)) throw new Error(`the parser script is missing (${script})`);
    this.child = fork(script, [], {
      // The heap ceiling; the watchdog bounds the rest. Electron runs the script as plain Node.
      execArgv: [`--max-old-space-size=${memoryMb}`],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_KEEP);
    });
    this.child.unref();
    this.child.channel?.unref();
    this.child.on('exit', () => {
      this.dead = true;
    });
    // Errors are reported to the job that is running (see run); this keeps one with no job from being unhandled.
    this.child.on('error', () => {
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
        this.kill();
        reject(error);
      };
      const onError = (error: Error) => fail(error);
      const onExit = (code: number | null, signal: string | null) => fail(new Error(`it exited (${signal ?? `code ${code}`}) ${this.stderr.trim().split('\n').pop() ?? ''}`.trim()));
      const cleanup = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('error', onError);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.on('error', onError);
      this.child.on('exit', onExit);
    });
    // A failed start is reported to whoever waits for `ready`.
    this.ready.catch(() => undefined);
  }

  kill(): void {
    this.dead = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }

  /** Whether the process died of V8's heap limit (it prints this before aborting). */
  get heapExhausted(): boolean {
    return /heap out of memory|Reached heap limit/i.test(this.stderr);
  }

  /** Runs one request; resolves with the answer, or how the run ended. Chunks stream into `onChunks`. */
  run(request: ParseRequest, timeoutMs: number, onChunks: (chunks: Chunk[]) => void, signal?: AbortSignal): Promise<Outcome> {
    this.peakRss = 0;
    this.stderr = '';
    const ceiling = this.memoryMb * 1024 * 1024;
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: Outcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(watchdog);
        signal?.removeEventListener('abort', onAbort);
        this.child.off('message', onMessage);
        this.child.off('error', onError);
        this.child.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type === 'chunks' && message.id === request.id) onChunks(message.chunks);
        else if ((message.type === 'result' || message.type === 'pages' || message.type === 'unsplit') && message.id === request.id) finish(message);
      };
      const onError = (error: Error) => finish({ type: 'crash', error });
      const onExit = (code: number | null, signal: string | null) => finish({ type: 'crash', error: new Error(`the parser stopped (${signal ?? `exit code ${code}`})`) });
      const timer = setTimeout(() => finish({ type: 'timeout' }), timeoutMs);
      // The caller retires the process (a kill): its half-done parse cannot be taken back.
      const onAbort = () => finish({ type: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      let reading = false;
      const watchdog = setInterval(() => {
        const pid = this.child.pid;
        if (reading || pid === undefined) return;
        reading = true;
        void residentBytes(pid).then((rss) => {
          reading = false;
          if (rss === null || done) return;
          this.peakRss = Math.max(this.peakRss, rss);
          if (rss > ceiling) {
            this.kill();
            finish({ type: 'memory', rss });
          }
        });
      }, WATCH_INTERVAL_MS);
      this.child.on('message', onMessage);
      this.child.on('error', onError);
      this.child.on('exit', onExit);
      if (signal?.aborted) return finish({ type: 'cancelled' });
      this.child.send(request);
    });
  }
}

const processes: ParserProcess[] = [];
const waiting: (() => void)[] = [];
let nextId = 1;

function retire(slot: ParserProcess): void {
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  const at = processes.indexOf(slot);
  if (at !== -1) processes.splice(at, 1);
  slot.kill();
  waiting.shift()?.();
}

async function acquire(memoryMb: number): Promise<ParserProcess> {
  for (;;) {
    // Processes that died while idle, or run with another ceiling, leave their place to new ones.
    for (const slot of processes.filter((p) => !p.busy && (p.dead || p.memoryMb !== memoryMb))) retire(slot);
    const idle = processes.find((p) => !p.busy && !p.dead);
    if (idle) {
      idle.busy = true;
      if (idle.idleTimer) clearTimeout(idle.idleTimer);
      idle.idleTimer = null;
      return idle;
    }
    if (processes.length < PARSE_POOL_SIZE) {
      const slot = new ParserProcess(memoryMb);
      slot.busy = true;
      processes.push(slot);
      return slot;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

function release(slot: ParserProcess): void {
  slot.busy = false;
  // A process that grew close to its ceiling gives its memory back by ending; the next file gets a fresh one.
  if (slot.dead || slot.peakRss > slot.memoryMb * 1024 * 1024 * 0.8) {
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

function testHook(mime: string): 'hang' | 'balloon' | null {
  if (process.env.PARLEY_INGEST_TEST_HOOKS !== '1') return null;
  return mime === TEST_HANG_MIME ? 'hang' : mime === TEST_BALLOON_MIME ? 'balloon' : null;
}

async function runInProcess(request: Omit<ParseRequest, 'id'>, limits: ParseLimits, onChunks: (chunks: Chunk[]) => void): Promise<ParsedDocument> {
  return asDocument(await runRequest(request, limits, onChunks));
}

function asDocument(answer: ParsedDocument | { pages: number } | { unsplit: true }): ParsedDocument {
  if (!('blocks' in answer)) throw new IngestError('parse_error', 'The parser answered something else than the document it was asked for.');
  return answer;
}

/**
 * Runs one request in a parser process: the document, a long PDF's page count (`splitPdfFrom`), or
 * word that a part of a split PDF holds too much text to be joined here (`pdfPartMaxChars`).
 */
async function runRequest(
  request: Omit<ParseRequest, 'id'>,
  limits: ParseLimits,
  onChunks: (chunks: Chunk[]) => void,
  /** Time left for this request (a part of a split PDF gets what is left of the file's limit). */
  timeoutMs = limits.timeoutMs,
): Promise<ParsedDocument | { pages: number } | { unsplit: true }> {
  const memoryMb = limits.memoryMb ?? DEFAULT_PARSE_MEMORY_MB;
  let slot: ParserProcess;
  try {
    slot = await acquire(memoryMb);
  } catch (error) {
    throw new IngestError('parse_error', `The parser could not start: ${errorText(error)}.`);
  }
  try {
    await slot.ready;
  } catch (error) {
    retire(slot);
    throw new IngestError('parse_error', `The parser could not start: ${errorText(error)}.`);
  }
  const outcome = await slot.run({ ...request, id: nextId++ }, Math.max(1, timeoutMs), onChunks, limits.signal);
  if (outcome.type === 'pages') {
    release(slot);
    return { pages: outcome.pages };
  }
  if (outcome.type === 'unsplit') {
    release(slot);
    return { unsplit: true };
  }
  if (outcome.type === 'result') {
    release(slot);
    if (outcome.ok) return outcome.doc;
    throw new IngestError(outcome.code, outcome.detail);
  }
  const heap = slot.heapExhausted;
  retire(slot);
  if (outcome.type === 'cancelled') throw new IngestError('cancelled', 'Processing was cancelled.');
  if (outcome.type === 'timeout') throw new IngestError('parse_error', `Parsing took longer than ${seconds(limits.timeoutMs)} s and was stopped.`);
  if (outcome.type === 'memory' || heap) {
    throw new IngestError('too_large', `Parsing needed more than ${memoryMb} MB of memory and was stopped ([uploads] parse_memory_mb).`);
  }
  const reason = outcome.type === 'crash' ? outcome.error : new Error('no answer');
  throw new IngestError('parse_error', `The parser failed: ${reason.message}.`);
}

function precheck(size: number, mime: string, maxBytes: number): void {
  if (size > maxBytes) throw new IngestError('too_large', `The file is ${size} bytes, over the limit of ${maxBytes} bytes.`);
  if (!testHook(mime) && !parserKind(mime)) throw new IngestError('unsupported_media_type', `${mime || 'This type'} files cannot be read.`);
  if (size === 0) throw new IngestError('empty', 'The file is empty.');
}

function hooks(mime: string): Pick<ParseRequest, 'hang' | 'balloon'> {
  const hook = testHook(mime);
  return hook === 'hang' ? { hang: true } : hook === 'balloon' ? { balloon: true } : {};
}

/**
 * Parses a file into blocks. Rejects only with an `IngestError`: `too_large` over `maxBytes` or
 * the memory ceiling (or a structural limit, see limits.ts), `unsupported_media_type` for a type no
 * parser reads, `parse_error` for a corrupt file, a parser that took longer than `timeoutMs` or
 * crashed, `empty` for a file without text.
 */
export async function parseDocument(input: ParseInput, limits: ParseLimits): Promise<ParsedDocument> {
  const { bytes, mime, filename } = input;
  precheck(bytes.length, mime, limits.maxBytes);
  return runInProcess({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), mime, filename, mode: 'document', ...hooks(mime) }, limits, () => undefined);
}

/**
 * The ingest path: the parser process reads the stored file itself, parses and chunks it, and
 * answers the chunks in small batches, so neither the bytes nor one giant message ever sit in the
 * main process. Same failures as `parseDocument`.
 */
export async function parseAndChunk(input: { path: string; size: number; mime: string; filename: string }, limits: ParseLimits): Promise<{ metadata: ParsedDocument['metadata']; chunks: Chunk[] }> {
  const chunks: Chunk[] = [];
  const { metadata } = await streamChunks(input, limits, (batch) => {
    for (const chunk of batch) chunks.push(chunk);
  });
  return { metadata, chunks };
}

/**
 * parseAndChunk, handing each batch of chunks to `onChunks` as it arrives (the ingest queue
 * indexes them while the rest are still coming) instead of collecting them. A PDF of at least
 * `PDF_SPLIT_MIN_PAGES` pages is read by up to `PARSE_POOL_SIZE` processes at once, a range of
 * pages each (see pdf-split.ts); `parts` says how many read the file.
 */
export async function streamChunks(
  input: { path: string; size: number; mime: string; filename: string },
  limits: ParseLimits,
  onChunks: (chunks: Chunk[]) => void,
): Promise<{ metadata: ParsedDocument['metadata']; parts: number }> {
  precheck(input.size, input.mime, limits.maxBytes);
  // The time limit is the file's, however many processes read it.
  const deadline = performance.now() + limits.timeoutMs;
  const file = { path: input.path, mime: input.mime, filename: input.filename };
  const split = PARSE_POOL_SIZE > 1 && parserKind(input.mime) === 'pdf' ? { splitPdfFrom: PDF_SPLIT_MIN_PAGES } : {};
  const answer = await runRequest({ ...file, mode: 'chunks', ...hooks(input.mime), ...split }, limits, onChunks);
  if (!('pages' in answer)) return { metadata: asDocument(answer).metadata, parts: 1 };

  const ranges = pdfPageRanges(answer.pages, PARSE_POOL_SIZE);
  const pdfPartMaxChars = limits.pdfPartMaxChars ?? PDF_PART_MAX_CHARS;
  // Every part runs to its end (each bounded by the deadline and its own memory ceiling) before
  // the outcome is known, so no process is left working for a file that already failed.
  const settled = await Promise.allSettled(
    ranges.map((pdfPages) => runRequest({ ...file, mode: 'document', pdfPages, pdfPartMaxChars }, limits, () => undefined, deadline - performance.now())),
  );
  const parts: ParsedDocument[] = [];
  let unsplit = false;
  for (const outcome of settled) {
    // The failure of the earliest pages is the one reported.
    if (outcome.status === 'rejected') throw outcome.reason;
    if ('unsplit' in outcome.value) unsplit = true;
    else parts.push(asDocument(outcome.value));
  }
  if (unsplit) {
    // Pages with that much text are joined where they were read, as before splitting: one process
    // reads the whole file and streams its chunks, so the main process never holds the whole text.
    parts.length = 0;
    settled.length = 0;
    const whole = await runRequest({ ...file, mode: 'chunks' }, limits, onChunks, deadline - performance.now());
    return { metadata: asDocument(whole).metadata, parts: 1 };
  }
  const doc = joinPdfParts(parts, answer.pages);
  for (const batch of chunkBatches(chunkDocument(doc))) onChunks(batch);
  return { metadata: doc.metadata, parts: ranges.length };
}

/**
 * A stored file parsed again into its document (blocks, table, text), read by the parser process
 * itself, with the same limits: what a reader's view of a cited passage is cut from.
 */
export async function parseStoredDocument(input: { path: string; size: number; mime: string; filename: string }, limits: ParseLimits): Promise<ParsedDocument> {
  precheck(input.size, input.mime, limits.maxBytes);
  return runInProcess({ path: input.path, mime: input.mime, filename: input.filename, mode: 'document', ...hooks(input.mime) }, limits, () => undefined);
}

/** Stops every parser process (shutdown, tests). Parses in progress fail with `parse_error`. */
export async function closeParserWorkers(): Promise<void> {
  const all = processes.splice(0);
  await Promise.all(
    all.map(async (slot) => {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      const exited = new Promise<void>((resolve) => {
        if (slot.child.exitCode !== null || slot.child.signalCode !== null) resolve();
        else slot.child.once('exit', () => resolve());
      });
      // The children are unref'd (an idle one must not keep the app alive): without this, a
      // process with nothing else to do would end before their exit arrives, this promise unsettled.
      slot.child.ref();
      slot.kill();
      await exited;
    }),
  );
}
