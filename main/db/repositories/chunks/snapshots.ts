import * as sqliteVec from 'sqlite-vec';
import type { Db } from '../../connection.js';

/**
 * Reads over a whole table that are too long for the main thread: main/search's worker thread runs
 * them on its own read-only connection (WAL: one consistent snapshot while the app keeps writing).
 * Each is one read transaction, so what it returns is of one moment.
 */

function inReadTransaction<T>(db: Db, read: () => T): T {
  db.exec('BEGIN');
  try {
    return read();
  } finally {
    db.exec('COMMIT');
  }
}

/**
 * A knowledge base's vectors with the version they are at, handed to `each` one by one (a
 * million of them need not be held twice); undefined when the vector index is of another model
 * or dimension than asked (it changed meanwhile). `begin` gets the count first, to size the graph.
 */
export function readSlotVectors(
  db: Db,
  job: { slot: number; model: string; dimensions: number },
  begin: (count: number) => void,
  each: (id: number, vector: Float32Array) => void,
): { version: number; count: number } | undefined {
  sqliteVec.load(db);
  return inReadTransaction(db, () => {
    const info = db.prepare<[], { model: string; dimensions: number }>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1').get();
    if (!info || info.model !== job.model || info.dimensions !== job.dimensions) return undefined;
    const version = db.prepare<[number], { version: number }>('SELECT version FROM chunk_vector_slots WHERE slot = ?').get(job.slot)?.version ?? 0;
    const count = db.prepare<[bigint], { n: number }>('SELECT count(*) AS n FROM chunk_vectors WHERE kb_slot = ?').get(BigInt(job.slot))?.n ?? 0;
    begin(count);
    const all = db.prepare<[bigint], { id: number; embedding: Buffer }>('SELECT chunk_id AS id, embedding FROM chunk_vectors WHERE kb_slot = ?');
    for (const row of all.iterate(BigInt(job.slot))) {
      const e = row.embedding;
      each(row.id, new Float32Array(e.buffer.slice(e.byteOffset, e.byteOffset + e.byteLength)));
    }
    return { version, count };
  });
}

/** The index's vocabulary for `chunk_terms` (a pass over the whole FTS5 index: seconds at a million chunks): terms in at least `minDf` chunks. */
export function readTermSnapshot(db: Db, minDf: number): { terms: Array<[string, number]>; chunksInserted: number } {
  return inReadTransaction(db, () => {
    const inserted = db.prepare<[], { n: number | null }>('SELECT sum(next_seq) AS n FROM chunk_kbs').get()?.n ?? 0;
    const terms = db.prepare<[number], [string, number]>('SELECT term, doc FROM chunks_vocab WHERE doc >= ?').raw().all(minDf);
    return { terms, chunksInserted: inserted };
  });
}
