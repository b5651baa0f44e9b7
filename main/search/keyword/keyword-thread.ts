/**
 * Keyword searches shared with a worker thread of its own, on its own read-only connection to the
 * database (WAL lets it read what the app has committed), so that a search uses both cores:
 * better-sqlite3 and hnswlib are synchronous, so on one thread every query of a search and the
 * vector half of a hybrid search run one after the other.
 *
 * How a search is shared (keyword-board.ts has the protocol): the caller hands the question over
 * and goes on (a hybrid search embeds it and searches the vector graphs meanwhile). Whichever
 * thread comes to it first plans it and lays out its queries (layout.ts: the selecting and
 * boosting queries per span, large ones in halves where that pays), and both run them, each
 * taking the next one no thread has taken. The caller then merges them (rescoring the nudging
 * terms). The results are the same whoever ran which query.
 *
 * This file is the transport only: the worker's life, and the steps of one shared search
 * ({@link SharedSearch}), each a read or a compare-and-swap on the board. What a search does at
 * each step (lay out, run a query, merge) is keyword.ts's, which drives them; the worker's side
 * is keyword-worker.ts.
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
import type { ScoredId } from '../../db/repositories/chunks.js';
import type { KeywordPiece, KeywordQuestion, KeywordWork } from './layout.js';
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

/** Said once, by message, before the worker starts waiting on the shared buffer. */
export type KeywordWorkerStarted = { type: 'ready' } | { type: 'failed'; reason: string };

export interface KeywordThreadOptions {
  /** The SQLite file the worker reads; none (PostgreSQL, whose server runs queries side by side): every search runs where it is asked. */
  file: string | undefined;
  nativeBinding?: string | undefined;
  log?: (line: string) => void;
}

/**
 * One search handed to the worker, as the caller goes through it (keyword.ts, rankShared): who
 * lays it out, then which queries are whose, then the worker's results, then the end.
 */
export interface SharedSearch {
  /**
   * Who lays the search out: `'here'` when the caller took the planning (it lays the search out,
   * then {@link publish}es it), or the work the worker laid out. Undefined when the search cannot
   * go on with the worker (found stuck or closed meanwhile, or this search was taken already): the
   * caller then runs it alone.
   */
  layout(): 'here' | KeywordWork | undefined;
  /** Hands the work laid out here to the worker; false when it is too large to share (the caller then runs every query). */
  publish(work: KeywordWork): boolean;
  /** Takes query `i` for the caller; false when the worker has taken it. */
  claim(i: number): boolean;
  /**
   * The worker's results of query `i`, waited for as long as it should take, with room to spare.
   * Undefined when the worker has stalled (its CPU taken away, on a virtual machine) or could not
   * run it: the caller runs it then, so a search shared never takes much longer than one run alone.
   */
  resultOf(i: number, piece: KeywordPiece): ScoredId[] | undefined;
  /** The search is over, ranked or thrown: frees the worker for the next one. Call it exactly once, however the search went. */
  end(): void;
}

export class KeywordThread {
  private state: 'idle' | 'starting' | 'ready' | 'failed' | 'closed' = 'idle';
  private worker: Worker | undefined;
  private starting: Promise<boolean> | undefined;
  /** The memory shared with the worker, made when it starts (none where no search ever runs). */
  private board: Board | undefined;
  /** The generation of the last question asked. */
  private gen = 0;
  /** A search is shared and has not ended yet: the next one runs alone meanwhile. */
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
    const file = this.options.file;
    if (this.state === 'closed' || this.state === 'failed' || file === undefined) return Promise.resolve(false);
    this.starting ??= new Promise<boolean>((resolve) => {
      this.state = 'starting';
      let worker: Worker;
      try {
        this.board = new Board(boardBuffer());
        const workerData: KeywordWorkerData = { file, nativeBinding: this.options.nativeBinding, shared: this.board.shared };
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
   * Hands the question to the worker and returns at once: the search's steps (see
   * {@link SharedSearch}), or undefined when the worker cannot take it now (see the top of this
   * file). Until the search ends the worker is held: a second search meanwhile runs alone.
   */
  share(question: KeywordQuestion): SharedSearch | undefined {
    if (this.options.file === undefined) return undefined;
    if (this.state === 'idle') void this.start();
    const board = this.board;
    if (this.state !== 'ready' || this.held || !board) return undefined;
    const gen = nextGeneration(this.gen);
    if (!board.ask(gen, question)) return undefined;
    this.gen = gen;
    this.held = true;
    let ended = false;
    return {
      layout: () => (ended || this.state !== 'ready' ? undefined : this.layout(board, gen)),
      publish: (work) => {
        if (board.publish(gen, work)) return true;
        this.queries.caller += work.pieces.length;
        return false;
      },
      claim: (i) => {
        const mine = board.claim(gen, i, PIECE.caller);
        if (mine) this.queries.caller++;
        return mine;
      },
      resultOf: (i, piece) => {
        for (let left = board.startedAt(i) + patience(piece) - now(); board.running(gen, i) && left > 0; left = board.startedAt(i) + patience(piece) - now()) {
          board.waitPiece(gen, i, left);
        }
        // Not done (stalled, or a late worker's word of another search), or the worker could not: the caller runs it (a real fault shows there as it would without the thread).
        const hits = board.isDone(gen, i) ? board.resultsOf(i) : undefined;
        if (hits) this.queries.worker++;
        else this.queries.caller++;
        return hits;
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.sayFailure(board, gen);
        if (this.state === 'ready') board.finish(gen);
        this.held = false;
      },
    };
  }

  /** Waits out the worker's planning if it took it; see {@link SharedSearch.layout}. */
  private layout(board: Board, gen: number): 'here' | KeywordWork | undefined {
    for (;;) {
      const s = board.state();
      if (s.phase === PHASE.asked) {
        // Lost to the worker when it fails: the state has moved on, read it again.
        if (!board.claimPlanning(gen)) continue;
        this.served++;
        return 'here';
      }
      if (s.phase === PHASE.planned) {
        this.served++;
        return board.work();
      }
      // No other state can hold while this question is asked; were it to, the caller runs the search alone.
      if (s.phase !== PHASE.planning) return undefined;
      if (!board.waitState(s.word, STUCK_MS)) return this.stuck('planning');
    }
  }

  /** Says once in the thread's life that the worker failed at a search (the caller ran its part). */
  private sayFailure(board: Board, gen: number): void {
    const failure = board.failureOf(gen);
    if (failure === undefined || this.errorSaid) return;
    this.errorSaid = true;
    this.log(`[retrieval] the keyword search thread failed at a search (${failure}): the main thread ran its part`);
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
