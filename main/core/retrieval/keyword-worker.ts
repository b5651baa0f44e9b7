/**
 * The keyword search thread (keyword-thread.ts starts it by file path; the main thread never loads
 * this module): ranks questions by keywords over its own read-only connection, one at a time,
 * waiting on the shared buffer for each (see keyword-thread.ts for why not messages).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../../db/connection.js';
import { createChunkReader, type ChunkReader } from '../../db/repositories/chunks.js';
import { keywordRanking } from './keyword.js';
import {
  CONTROL,
  controlOf,
  errorText,
  readShared,
  STATE,
  writeShared,
  type KeywordWorkerAnswer,
  type KeywordWorkerData,
  type KeywordWorkerRequest,
  type KeywordWorkerStarted,
} from './keyword-thread.js';

const started = (message: KeywordWorkerStarted) => parentPort?.postMessage(message);
const { file, nativeBinding, shared } = workerData as KeywordWorkerData;
const control = controlOf(shared);

function answer(chunks: ChunkReader): KeywordWorkerAnswer {
  try {
    const q = readShared<KeywordWorkerRequest>(shared);
    return { ok: true, ranking: keywordRanking(chunks, q.ranges, q.text, q.limit, q.options) };
  } catch (error) {
    return { ok: false, reason: errorText(error) };
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
  // Until terminated (which interrupts the wait): each question as it is asked.
  for (;;) {
    for (let state = Atomics.load(control, CONTROL.state); state !== STATE.asked; state = Atomics.load(control, CONTROL.state)) {
      Atomics.wait(control, CONTROL.state, state);
    }
    if (!writeShared(shared, answer(chunks))) writeShared(shared, { ok: false, reason: 'the ranking is too large to hand back' } satisfies KeywordWorkerAnswer);
    Atomics.store(control, CONTROL.state, STATE.answered);
    Atomics.notify(control, CONTROL.state);
  }
}
