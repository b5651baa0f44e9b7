/**
 * The keyword search thread (keyword-thread.ts starts it by file path; the main thread never loads
 * this module): ranks questions by keywords over its own read-only connection, one at a time,
 * waiting on the shared buffer for each (see keyword-thread.ts for why not messages).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../../db/connection.js';
import { createChunkReader } from '../../db/repositories/chunks.js';
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

function answer(): KeywordWorkerAnswer {
  try {
    const q = readShared<KeywordWorkerRequest>(shared);
    return { ok: true, ranking: keywordRanking(chunks, q.kb_ids, q.text, q.limit, q.options) };
  } catch (error) {
    return { ok: false, reason: errorText(error) };
  }
}

let chunks: ReturnType<typeof createChunkReader>;
try {
  chunks = createChunkReader(openReadOnlyDatabase(file, nativeBinding ? { nativeBinding } : {}));
  started({ type: 'ready' });
} catch (error) {
  started({ type: 'failed', reason: errorText(error) });
  process.exit(1);
}
// Until terminated (which interrupts the wait): each question as it is asked.
for (;;) {
  for (let state = Atomics.load(control, CONTROL.state); state !== STATE.asked; state = Atomics.load(control, CONTROL.state)) {
    Atomics.wait(control, CONTROL.state, state);
  }
  if (!writeShared(shared, answer())) writeShared(shared, { ok: false, reason: 'the ranking is too large to hand back' } satisfies KeywordWorkerAnswer);
  Atomics.store(control, CONTROL.state, STATE.answered);
  Atomics.notify(control, CONTROL.state);
}
