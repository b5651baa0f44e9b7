/**
 * The shared memory a keyword search is shared through: the caller's side is keyword-thread.ts,
 * the worker's keyword-worker.ts. Both threads act on it with atomic operations only, so neither
 * ever waits for the other to wake up:
 *
 * - the caller writes the question and marks it asked;
 * - whichever thread comes first claims the planning (compare-and-swap asked → planning), plans,
 *   and publishes the work: its queries, each with a status word;
 * - each thread claims queries one by one (compare-and-swap free → taken) and runs them; the
 *   worker writes each result into the board, then marks the query done;
 * - the caller, once no query is left free, waits for those the worker is still running, reads
 *   their results and marks the search idle.
 *
 * Every state and status word carries the question's generation, so a worker that wakes late
 * and acts on a question already finished changes nothing: its compare-and-swap fails.
 */
import type { ScoredId } from '../../db/repositories/chunks.js';
import type { KeywordWork } from './layout.js';

/** A search with more queries than this is not shared (the caller runs it alone). */
export const MAX_PIECES = 256;
export const PHASE = { idle: 0, asked: 1, planning: 2, planned: 3 } as const;
export const PIECE = { free: 0, worker: 1, done: 2, caller: 3 } as const;
const GENERATIONS = 1 << 29;

/** Int32 slots of the control block. */
const SLOT = { state: 0, failedGen: 1, used: 2, question: 3, work: 4, reason: 5, acted: 6 } as const;
const CONTROL_INTS = 16;
const STATUS_AT = CONTROL_INTS;
const INDEX_AT = STATUS_AT + MAX_PIECES;
const HEADER_BYTES = 4096;

interface Region {
  at: number;
  bytes: number;
  /** The control slot that holds its length. */
  length: number;
}
const QUESTION: Region = { at: HEADER_BYTES, bytes: 1 << 18, length: SLOT.question };
const WORK: Region = { at: QUESTION.at + QUESTION.bytes, bytes: 1 << 18, length: SLOT.work };
const REASON: Region = { at: WORK.at + WORK.bytes, bytes: 1 << 12, length: SLOT.reason };
/** When the worker started each query (ms since the epoch, as both threads read the clock). */
const STARTS_AT = REASON.at + REASON.bytes;
const HITS_AT = STARTS_AT + MAX_PIECES * 8;
/** Room for the worker's results of one search: an id and a score each. */
const HITS = 1 << 16;

export const boardBuffer = () => new SharedArrayBuffer(HITS_AT + HITS * 2 * 8);
export const nextGeneration = (gen: number) => (gen + 1) % GENERATIONS;
const word = (gen: number, low: number) => gen * 4 + low;

const encoder = new TextEncoder();
/** The time in ms since the epoch, to the microsecond: the same clock in every thread (performance.now() counts from each thread's start). */
export const now = () => performance.timeOrigin + performance.now();

export class Board {
  private readonly ints: Int32Array;
  private readonly hits: Float64Array;
  private readonly starts: Float64Array;

  constructor(readonly shared: SharedArrayBuffer) {
    this.ints = new Int32Array(shared, 0, HEADER_BYTES / 4);
    this.hits = new Float64Array(shared, HITS_AT, HITS * 2);
    this.starts = new Float64Array(shared, STARTS_AT, MAX_PIECES);
  }

  /** The current question's generation and phase. */
  state(): { gen: number; phase: number; word: number } {
    const value = Atomics.load(this.ints, SLOT.state);
    return { gen: Math.floor(value / 4), phase: value % 4, word: value };
  }

  private setState(gen: number, phase: number): void {
    Atomics.store(this.ints, SLOT.state, word(gen, phase));
    Atomics.notify(this.ints, SLOT.state);
  }

  /** Waits while the state word is `value` (false when `timeoutMs` passes first). */
  waitState(value: number, timeoutMs?: number): boolean {
    return Atomics.wait(this.ints, SLOT.state, value, timeoutMs) !== 'timed-out';
  }

  private write(region: Region, value: unknown): boolean {
    const json = JSON.stringify(value);
    const { read, written } = encoder.encodeInto(json, new Uint8Array(this.shared, region.at, region.bytes));
    if (read < json.length) return false;
    Atomics.store(this.ints, region.length, written);
    return true;
  }

  private read<T>(region: Region): T {
    const length = Atomics.load(this.ints, region.length);
    return JSON.parse(Buffer.from(this.shared, region.at, length).toString('utf8')) as T;
  }

  /** Caller: asks question `gen` (false when it does not fit). */
  ask(gen: number, question: unknown): boolean {
    if (!this.write(QUESTION, question)) return false;
    this.setState(gen, PHASE.asked);
    return true;
  }

  question<T>(): T {
    return this.read<T>(QUESTION);
  }

  /** Either thread: takes the planning of question `gen` if nobody has. */
  claimPlanning(gen: number): boolean {
    return Atomics.compareExchange(this.ints, SLOT.state, word(gen, PHASE.asked), word(gen, PHASE.planning)) === word(gen, PHASE.asked);
  }

  /** The planner: lays the work out for both threads (false when it does not fit: the planner then runs it alone). */
  publish(gen: number, work: KeywordWork): boolean {
    if (work.pieces.length > MAX_PIECES || !this.write(WORK, work)) return false;
    for (let i = 0; i < work.pieces.length; i++) Atomics.store(this.ints, STATUS_AT + i, word(gen, PIECE.free));
    this.setState(gen, PHASE.planned);
    return true;
  }

  /** The worker, when it could not plan or publish: the caller plans instead. */
  handBack(gen: number): void {
    this.setState(gen, PHASE.asked);
  }

  work(): KeywordWork {
    return this.read<KeywordWork>(WORK);
  }

  /** Takes query `i` of question `gen` for `who` if no thread has (the worker says when it started it). */
  claim(gen: number, i: number, who: typeof PIECE.worker | typeof PIECE.caller): boolean {
    // Written before the claim, which publishes it: the caller reads it only of a query the worker holds.
    if (who === PIECE.worker) this.starts[i] = now();
    return Atomics.compareExchange(this.ints, STATUS_AT + i, word(gen, PIECE.free), word(gen, who)) === word(gen, PIECE.free);
  }

  /** Whether query `i` of question `gen` is the worker's and not done yet. */
  running(gen: number, i: number): boolean {
    return Atomics.load(this.ints, STATUS_AT + i) === word(gen, PIECE.worker);
  }

  /** Whether the worker has finished query `i` of question `gen` (a word of another generation: a late worker's, not to be trusted). */
  isDone(gen: number, i: number): boolean {
    return Atomics.load(this.ints, STATUS_AT + i) === word(gen, PIECE.done);
  }

  /** When the worker started query `i` (ms since the epoch). */
  startedAt(i: number): number {
    return this.starts[i]!;
  }

  /** Waits while the worker runs query `i`, for at most `timeoutMs`. */
  waitPiece(gen: number, i: number, timeoutMs: number): void {
    Atomics.wait(this.ints, STATUS_AT + i, word(gen, PIECE.worker), timeoutMs);
  }

  /** The worker: its first query of a question (the caller has read every earlier result). */
  clearHits(): void {
    Atomics.store(this.ints, SLOT.used, 0);
  }

  /** The worker: query `i`'s results (undefined: it failed them, or they do not fit), then marks it done. */
  done(gen: number, i: number, hits: readonly ScoredId[] | undefined): void {
    const used = Atomics.load(this.ints, SLOT.used);
    const fits = hits !== undefined && used + hits.length <= HITS;
    if (fits) {
      hits.forEach((hit, n) => {
        this.hits[(used + n) * 2] = hit.id;
        this.hits[(used + n) * 2 + 1] = hit.bm25;
      });
      Atomics.store(this.ints, SLOT.used, used + hits.length);
    }
    Atomics.store(this.ints, INDEX_AT + i * 2, used);
    Atomics.store(this.ints, INDEX_AT + i * 2 + 1, fits ? hits.length : -1);
    Atomics.store(this.ints, STATUS_AT + i, word(gen, PIECE.done));
    Atomics.notify(this.ints, STATUS_AT + i);
  }

  /** Caller: the results of query `i`, which the worker did (undefined: it could not, so the caller runs it). */
  resultsOf(i: number): ScoredId[] | undefined {
    const at = Atomics.load(this.ints, INDEX_AT + i * 2);
    const count = Atomics.load(this.ints, INDEX_AT + i * 2 + 1);
    if (count < 0) return undefined;
    return Array.from({ length: count }, (_, n) => ({ id: this.hits[(at + n) * 2]!, bm25: this.hits[(at + n) * 2 + 1]! }));
  }

  /** The worker: says why it failed at question `gen` (the caller logs it). */
  reportFailure(gen: number, reason: string): void {
    if (this.write(REASON, reason.slice(0, 1000))) Atomics.store(this.ints, SLOT.failedGen, gen + 1);
  }

  /** Caller: why the worker failed at question `gen`, if it did. */
  failureOf(gen: number): string | undefined {
    return Atomics.load(this.ints, SLOT.failedGen) === gen + 1 ? this.read<string>(REASON) : undefined;
  }

  /** The worker: it has done all it can for question `gen` (planned it or handed it back, and run every query it could take). */
  acted(gen: number): void {
    Atomics.store(this.ints, SLOT.acted, gen + 1);
  }

  /** Whether the worker has done all it can for question `gen`. */
  hasActed(gen: number): boolean {
    return Atomics.load(this.ints, SLOT.acted) === gen + 1;
  }

  /** Caller: question `gen` is over; the board takes the next. */
  finish(gen: number): void {
    this.setState(gen, PHASE.idle);
  }
}
