/**
 * Work over the chunks that is too long for the main thread, run in a worker thread on its own
 * read-only connection (WAL: it reads one consistent snapshot while the app keeps writing):
 * - `graph`: builds a knowledge base's HNSW graph from `chunk_vectors` and saves it beside the
 *   database (a graph file of its own, flushed, then the meta naming it, as ann.ts does: graph-files.ts);
 * - `term-stats`: reads the index's vocabulary for `chunk_terms` (a pass over the whole FTS5 index:
 *   seconds at a million chunks); the main thread writes what it gets in one short transaction.
 * Never loaded by the main thread: background.ts starts it by file path.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import * as sqliteVec from 'sqlite-vec';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import type { BackgroundJob, BackgroundResult } from './background-protocol.js';
import { openReadOnlyDatabase, type Db } from '../../connection.js';
import { ensureGraphDir, publishGraphSync } from './graph-files.js';
import { graphLabel } from './slots.js';
import { errorText } from '../../../../shared/errors.js';

type HnswModule = { HierarchicalNSW: new (space: 'cosine', dimensions: number) => Hnsw };

function buildGraph(db: Db, job: Extract<BackgroundJob, { kind: 'graph' }>): BackgroundResult {
  const hnsw = createRequire(import.meta.url)('hnswlib-node') as HnswModule;
  sqliteVec.load(db);
  // One read transaction: the version and the vectors are of the same moment.
  db.exec('BEGIN');
  try {
    const info = db.prepare<[], { model: string; dimensions: number }>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1').get();
    if (!info || info.model !== job.model || info.dimensions !== job.dimensions) return { kind: 'graph', ok: false, reason: 'the vector index changed model' };
    const version = db.prepare<[number], { version: number }>('SELECT version FROM chunk_vector_slots WHERE slot = ?').get(job.slot)?.version ?? 0;
    const count = db.prepare<[bigint], { n: number }>('SELECT count(*) AS n FROM chunk_vectors WHERE kb_slot = ?').get(BigInt(job.slot))?.n ?? 0;
    const index = new hnsw.HierarchicalNSW('cosine', job.dimensions);
    index.initIndex({ maxElements: Math.max(1_024, Math.ceil(count * 1.25)), m: job.params.m, efConstruction: job.params.efConstruction, randomSeed: 100 });
    const all = db.prepare<[bigint], { id: number; embedding: Buffer }>('SELECT chunk_id AS id, embedding FROM chunk_vectors WHERE kb_slot = ?');
    for (const row of all.iterate(BigInt(job.slot))) {
      const e = row.embedding;
      const vector = new Float32Array(e.buffer.slice(e.byteOffset, e.byteOffset + e.byteLength));
      if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
      index.addPoint(Array.from(vector), graphLabel(row.id));
    }
    ensureGraphDir(job.dir);
    index.writeIndexSync(job.graphFile);
    publishGraphSync(job.dir, job.slot, job.graphFile, { version, model: job.model, dimensions: job.dimensions, params: job.params });
    return { kind: 'graph', ok: true, version, count };
  } finally {
    db.exec('COMMIT');
  }
}

function termStats(db: Db, job: Extract<BackgroundJob, { kind: 'term-stats' }>): BackgroundResult {
  db.exec('BEGIN');
  try {
    const inserted = db.prepare<[], { n: number | null }>('SELECT sum(next_seq) AS n FROM chunk_kbs').get()?.n ?? 0;
    const rows = db.prepare<[number], [string, number]>('SELECT term, doc FROM chunks_vocab WHERE doc >= ?').raw().all(job.minDf);
    return { kind: 'term-stats', ok: true, terms: rows, chunksInserted: inserted };
  } finally {
    db.exec('COMMIT');
  }
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
