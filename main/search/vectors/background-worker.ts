/**
 * Work over the chunks that is too long for the main thread, run in a worker thread on its own
 * read-only connection (WAL: it reads one consistent snapshot while the app keeps writing); the
 * reads themselves are main/db's (chunks/snapshots.ts):
 * - `graph`: builds a knowledge base's HNSW graph from `chunk_vectors` and saves it beside the
 *   database (a graph file of its own, flushed, then the meta naming it, as ann.ts does: graph-files.ts);
 * - `term-stats`: reads the index's vocabulary for `chunk_terms`; the main thread writes what it gets.
 * Never loaded by the main thread: background.ts starts it by file path.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BackgroundJob, BackgroundResult } from './background-protocol.js';
import { openReadOnlyDatabase, type Db } from '../../db/connection.js';
import { readSlotVectors, readTermSnapshot } from '../../db/repositories/chunks/snapshots.js';
import { graphLabel } from '../../db/repositories/chunks/slots.js';
import { ensureGraphDir, publishGraphSync } from './graph-files.js';
import { hnswModule, newIndex, addToIndex } from './hnsw.js';
import { errorText } from '../../../shared/errors.js';

function buildGraph(db: Db, job: Extract<BackgroundJob, { kind: 'graph' }>): BackgroundResult {
  const hnsw = hnswModule();
  if (!hnsw) return { kind: 'graph', ok: false, reason: 'hnswlib-node could not be loaded' };
  let index: ReturnType<typeof newIndex> | undefined;
  const read = readSlotVectors(
    db,
    job,
    (count) => (index = newIndex(hnsw, job.dimensions, count, job.params)),
    (id, vector) => addToIndex(index!, graphLabel(id), vector),
  );
  if (!read || !index) return { kind: 'graph', ok: false, reason: 'the vector index changed model' };
  ensureGraphDir(job.dir);
  index.writeIndexSync(job.graphFile);
  publishGraphSync(job.dir, job.slot, job.graphFile, { version: read.version, model: job.model, dimensions: job.dimensions, params: job.params });
  return { kind: 'graph', ok: true, version: read.version, count: read.count };
}

function termStats(db: Db, job: Extract<BackgroundJob, { kind: 'term-stats' }>): BackgroundResult {
  return { kind: 'term-stats', ok: true, ...readTermSnapshot(db, job.minDf) };
}

const job = workerData as BackgroundJob;
let result: BackgroundResult;
try {
  // It builds graphs and reads statistics, and ranks nothing: no ranking extension.
  const db = openReadOnlyDatabase(job.dbFile, { rankingExtension: false, ...(job.nativeBinding ? { nativeBinding: job.nativeBinding } : {}) });
  try {
    result = job.kind === 'graph' ? buildGraph(db, job) : termStats(db, job);
  } finally {
    db.close();
  }
} catch (error) {
  result = { kind: job.kind, ok: false, reason: errorText(error) };
}
parentPort?.postMessage(result);
