/**
 * Keyword searches shared with a worker thread of its own, on its own read-only connection to the
 * database (WAL lets it read what the app has committed), so that a search uses both cores:
 * better-sqlite3 and hnswlib are synchronous, so on one thread every query of a search and the
 * vector half of a hybrid search run one after the other.
 *
 * How a search is shared (keyword-board.ts has the protocol): the caller hands the question over
 * and goes on (a hybrid search embeds it and searches the vector graphs meanwhile). Whichever
 * thread comes to it first plans it and lays out its queries (keyword.ts: the selecting and
 * boosting queries per span, large ones in halves where that pays), and both run them, each
 * taking the next one no thread has taken. The caller then merges them (rescoring the nudging
 * terms). The results are the same whoever ran which query.
 *
 * The caller never waits for the worker to wake: on this machine a thread asleep for a few
 * milliseconds takes 2–7.5 ms to wake (a virtual CPU left idle), more than many searches take. It
 * only waits for queries the worker has started, and it would otherwise run them itself,
 * synchronously too. The threads meet through shared memory, not messages: a message to a worker
 * and back costs 0.2 ms at the median here, through both event loops.
 *
 * Whenever the worker cannot take a search, the caller runs it alone, as it did before this
 * thread existed: while the worker starts (the first search starts it), while it holds another
 * search (two searches at once then use both cores), and once it has failed or closed.
 */
import { Worker } from 'node:worker_threads';
import { KEYWORD_DEFAULTS, type KeywordOptions } from './plan.js';
import type { ChunkReader, KbRange, ScoredId } from '../../db/repositories/chunks.js';
import { combineWork, keywordWork, runPiece, runWork, type KeywordPiece, type KeywordRanking, type KeywordSharing, type KeywordWork } from './keyword.js';
import { Board, boardBuffer, nextGeneration, now, PHASE, PIECE } from './keyword-board.js';
import { errorText } from '../../../shared/errors.js';
import { workerScript } from '../../launch/worker-script.js';

/** A worker that has not finished planning by then is taken for stuck: the caller runs searches alone from then on. */
const STUCK_MS = 10_000;
/** How long the caller waits for a query the worker runs, from when it started it: twice its estimated cost, and a millisecond. */
const patience = (piece: KeywordPiece) => 1 + (2 * piece.cost) / 1000;

/** What the worker starts with. */
export interface KeywordWorkerData {
  file: string;
  nativeBinding?: string | undefined;
  shared: SharedArrayBuffer;
}

export interface KeywordWorkerRequest {
  /** The knowledge bases' id ranges, as the caller read them (its vector half searches the same). */
  ranges: KbRange[];
  text: string;
  limit: number;
  options: KeywordOptions;
}

/** Said once, by message, before the worker starts waiting on the shared buffer. */
export type KeywordWorkerStarted = { type: 'ready' } | { type: 'failed'; reason: string };

export interface KeywordThreadOptions {
  file: string;
  nativeBinding?: string | undefined;
  log?: (line: string) => void;
}

/** Only the keyword options (plain numbers): a caller's options may hold functions, which no other thread can receive. */
function keywordOptions(options: KeywordOptions): KeywordOptions {
  const picked: Record<string, number> = {};
  for (const key of Object.keys(KEYWORD_DEFAULTS) as Array<keyof KeywordOptions>) {
    const value = options[key];
    if (typeof value === 'number') picked[key] = value;
  }
  return picked;
}

export class KeywordThread implements KeywordSharing {
  private state: 'idle' | 'starting' | 'ready' | 'failed' | 'closed' = 'idle';
  private worker: Worker | undefined;
  private starting: Promise<boolean> | undefined;
  /** The memory shared with the worker, made when it starts (none where no search ever runs). */
  private board: Board | undefined;
  /** The generation of the last question asked. */
  private gen = 0;
  /** A question is with the worker, or its answer not taken yet. */
  private held = false;
  private errorSaid = false;
  /** Searches that went through the board (the rest ran in place): read by the tests and the bench. */
  served = 0;
  /** The queries of those searches, by the thread that ran them. */
  readonly queries = { caller: 0, worker: 0 };

  constructor(private readonly options: KeywordThreadOptions) {}

  private log(line: string): void {
    (this.options.log ?? ((text: string) => console.warn(text)))(line);
  }

  /** Starts the worker, once; resolves with whether it ranks (false once it failed or closed). */
  start(): Promise<boolean> {
    if (this.state === 'closed' || this.state === 'failed') return Promise.resolve(false);
    this.starting ??= new Promise<boolean>((resolve) => {
      this.state = 'starting';
      let worker: Worker;
      try {
        this.board = new Board(boardBuffer());
        const workerData: KeywordWorkerData = { file: this.options.file, nativeBinding: this.options.nativeBinding, shared: this.board.shared };
        worker = new Worker(workerScript(import.meta.url, 'keyword-worker'), { workerData });
      } catch (error) {
        this.fail(errorText(error));
        return resolve(false);
      }
      // It keeps no process alive: a caller waiting for an answer waits synchronously.
      worker.unref();
      this.worker = worker;
      worker.once('message', (message: KeywordWorkerStarted) => {
        if (message.type === 'failed') this.fail(message.reason);
        else if (this.state === 'starting') this.state = 'ready';
        resolve(this.state === 'ready');
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
   * Hands the question to the worker and returns at once a function that finishes the search, on
   * the caller's connection `chunks`: the best `limit` chunks of the knowledge bases `ranges` for
   * `text`, the worker having run whatever part of it it could. Undefined from that function only
   * when the worker is found stuck or closed meanwhile (the caller then runs the search alone).
   * Call it exactly once, however the search goes on: until then the worker is held. Undefined
   * instead of a function when the worker cannot take the question now (see the top of this file).
   */
  rank(ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions = {}): ((chunks: ChunkReader) => KeywordRanking | undefined) | undefined {
    if (this.state === 'idle') void this.start();
    const board = this.board;
    if (this.state !== 'ready' || this.held || !board) return undefined;
    const picked = keywordOptions(options);
    const request: KeywordWorkerRequest = { ranges: [...ranges], text, limit, options: picked };
    const gen = nextGeneration(this.gen);
    if (!board.ask(gen, request)) return undefined;
    this.gen = gen;
    this.held = true;
    let taken = false;
    return (chunks) => {
      if (taken) return undefined;
      taken = true;
      try {
        return this.finish(board, gen, request, chunks);
      } finally {
        if (this.state === 'ready') board.finish(gen);
        this.held = false;
      }
    };
  }

  /** Plans the question unless the worker has, runs the queries no thread has taken, and merges them with the worker's. */
  private finish(board: Board, gen: number, q: KeywordWorkerRequest, chunks: ChunkReader): KeywordRanking | undefined {
    if (this.state !== 'ready') return undefined;
    let work: KeywordWork | undefined;
    for (let s = board.state(); !work; s = board.state()) {
      if (s.phase === PHASE.asked && board.claimPlanning(gen)) {
        const planned = keywordWork(chunks, q.ranges, q.text, q.limit, q.options, true);
        // Too large to lay out for both: run it all here.
        if (!board.publish(gen, planned)) return this.alone(planned, chunks, q.options);
        work = planned;
      } else if (s.phase === PHASE.planned) {
        work = board.work();
      } else if (s.phase === PHASE.planning) {
        if (!board.waitState(s.word, STUCK_MS)) return this.stuck('planning');
      } else {
        // No other state can hold while this question is asked; were it to, the search runs here alone.
        return this.alone(keywordWork(chunks, q.ranges, q.text, q.limit, q.options, false), chunks, q.options);
      }
    }
    const results: ScoredId[][] = [];
    const theirs: number[] = [];
    for (let i = 0; i < work.pieces.length; i++) {
      if (board.claim(gen, i, PIECE.caller)) {
        results[i] = runPiece(chunks, work.plan, work.pieces[i]!);
        this.queries.caller++;
      } else theirs.push(i);
    }
    for (const i of theirs) {
      const piece = work.pieces[i]!;
      // The worker's query: waited for as long as it should take, with room to spare. A worker
      // past that has stalled (its CPU taken away, on a virtual machine): the query runs here too,
      // so a search shared never takes much longer than one run here alone.
      for (let left = board.startedAt(i) + patience(piece) - now(); board.running(gen, i) && left > 0; left = board.startedAt(i) + patience(piece) - now()) {
        board.waitPiece(gen, i, left);
      }
      const hits = board.isDone(gen, i) ? board.resultsOf(i) : undefined;
      if (hits) this.queries.worker++;
      else this.queries.caller++;
      // Not done (stalled, or a late worker's word), or the worker could not: run it here (a real fault shows here as it would without the thread).
      results[i] = hits ?? runPiece(chunks, work.plan, piece);
    }
    const failure = board.failureOf(gen);
    if (failure !== undefined && !this.errorSaid) {
      this.errorSaid = true;
      this.log(`[retrieval] the keyword search thread failed at a search (${failure}): the main thread ran its part`);
    }
    this.served++;
    return combineWork(chunks, work, results, q.options);
  }

  private alone(work: KeywordWork, chunks: ChunkReader, options: KeywordOptions): KeywordRanking {
    this.queries.caller += work.pieces.length;
    this.served++;
    return runWork(chunks, work, options);
  }

  private stuck(what: string): undefined {
    this.fail(`it did not finish ${what} within ${STUCK_MS / 1000} s`);
    return undefined;
  }

  /**
   * Whether the worker has done all it can for the question it holds: planned it (or failed to),
   * and run every query the caller had not taken. Lets a test wait for the worker without a clock.
   */
  workerCaughtUp(): boolean {
    return this.held && this.board !== undefined && this.board.hasActed(this.gen);
  }

  /** The worker is gone for good: searches rank in place from now on. */
  private fail(reason: string): void {
    if (this.state === 'failed' || this.state === 'closed') return;
    this.state = 'failed';
    this.held = false;
    this.log(`[retrieval] the keyword search thread stopped (${reason}): keyword ranking runs on the main thread`);
    void this.worker?.terminate();
  }

  /** Stops the worker (shutdown, before the database closes); searches after this rank in place. */
  async close(): Promise<void> {
    this.state = 'closed';
    this.held = false;
    const worker = this.worker;
    this.worker = undefined;
    // Read-only: nothing it holds can be lost.
    if (worker) await worker.terminate();
  }
}
