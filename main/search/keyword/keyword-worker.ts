/**
 * The keyword search thread (keyword-thread.ts starts it by file path; the main thread never loads
 * this module): on its own read-only connection, it plans the questions it is handed unless the
 * caller got there first, and runs the queries of each that the caller has not taken, sleeping on
 * the board between questions (keyword-board.ts has the protocol). It lays out and runs with the
 * same functions as the caller (layout.ts); the caller alone merges (keyword.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../../db/connection.js';
import { createChunkReader, type ChunkReader, type ScoredId } from '../../db/repositories/chunks.js';
import { layOut, runPiece, type KeywordQuestion, type KeywordWork } from './layout.js';
import { Board, PHASE, PIECE } from './keyword-board.js';
import { errorText } from '../../../shared/errors.js';
import type { KeywordWorkerData, KeywordWorkerStarted } from './keyword-thread.js';

const started = (message: KeywordWorkerStarted) => parentPort?.postMessage(message);
const { file, nativeBinding, shared } = workerData as KeywordWorkerData;
const board = new Board(shared);

/** Plans question `gen` and lays it out; handed back to the caller when that fails. */
function plan(chunks: ChunkReader, gen: number): KeywordWork | undefined {
  try {
    const work = layOut(chunks, board.question<KeywordQuestion>(), true);
    if (board.publish(gen, work)) return work;
  } catch (error) {
    board.reportFailure(gen, errorText(error));
  }
  board.handBack(gen);
  return undefined;
}

/** Runs the queries of question `gen` that the caller has not taken. */
function join(chunks: ChunkReader, gen: number, work: KeywordWork): void {
  board.clearHits();
  for (let i = 0; i < work.pieces.length; i++) {
    if (!board.claim(gen, i, PIECE.worker)) continue;
    let hits: ScoredId[] | undefined;
    try {
      hits = runPiece(chunks, work.plan, work.pieces[i]!);
    } catch (error) {
      board.reportFailure(gen, errorText(error));
    }
    board.done(gen, i, hits);
  }
}

function open(): ChunkReader | undefined {
  try {
    return createChunkReader(openReadOnlyDatabase(file, nativeBinding ? { nativeBinding } : {}));
  } catch (error) {
    // Said with its reason; the thread then ends on its own (nothing else keeps it running).
    started({ type: 'failed', reason: errorText(error) });
    return undefined;
  }
}

const chunks = open();
if (chunks) {
  started({ type: 'ready' });
  // The last question it planned, handed back or joined: it acts on each question once.
  let last = -1;
  // Until terminated (which interrupts the wait).
  for (;;) {
    const s = board.state();
    if (s.gen !== last && s.phase === PHASE.asked && board.claimPlanning(s.gen)) {
      last = s.gen;
      const work = plan(chunks, s.gen);
      if (work) join(chunks, s.gen, work);
      board.acted(s.gen);
    } else if (s.gen !== last && s.phase === PHASE.planned) {
      last = s.gen;
      let work: KeywordWork | undefined;
      try {
        work = board.work();
      } catch {
        // Read while the caller wrote the next question's: that question is over, nothing to do.
      }
      if (work) join(chunks, s.gen, work);
      board.acted(s.gen);
    } else board.waitState(s.word);
  }
}
