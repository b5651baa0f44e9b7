import type { Statement } from 'better-sqlite3';
import type { Db } from '../../connection.js';
import type { VectorGraphSource } from './index-port.js';
import { searchableId } from './unready.js';

export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

export const blob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
/** A copy: SQLite's buffer need not be 4-byte aligned. */
const floats = (buffer: Buffer) => new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));

/** The statements over `chunk_vectors` itself: made at first use, and again after the table is recreated (vec0 exists only once a model is chosen). */
interface Vec0Statements {
  insert: Statement<[bigint, bigint, Buffer]>;
  has: Statement<[bigint], { one: number }>;
  knn: Statement<[Buffer, number, bigint], { id: number; distance: number }>;
  missing: Statement<[number, number, number], { id: number; text: string }>;
  deleteIds: Statement<[string]>;
  count: Statement<[bigint], { n: number }>;
  all: Statement<[bigint], { id: number; embedding: Buffer }>;
}

function prepareVec0(db: Db): Vec0Statements {
  return {
    // vec0 ignores conflict clauses: a chunk that has a vector already is skipped before this.
    insert: db.prepare('INSERT INTO chunk_vectors (chunk_id, kb_slot, embedding) VALUES (?, ?, ?)'),
    has: db.prepare('SELECT 1 AS one FROM chunk_vectors WHERE chunk_id = ?'),
    knn: db.prepare('SELECT chunk_id AS id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? AND kb_slot = ? ORDER BY distance'),
    missing: db.prepare(
      `SELECT c.id, c.text FROM chunks c
       WHERE c.id > ? AND c.id <= ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id) AND ${searchableId('c.id')}
       ORDER BY c.id LIMIT ?`,
    ),
    deleteIds: db.prepare('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))'),
    count: db.prepare('SELECT count(*) AS n FROM chunk_vectors WHERE kb_slot = ?'),
    all: db.prepare('SELECT chunk_id AS id, embedding FROM chunk_vectors WHERE kb_slot = ?'),
  };
}

/** The SQL of chunk vectors: the index's model, the per-knowledge-base versions, the deleted chunks' queue, and vec0. */
export function vectorStatements(db: Db) {
  let vec0: Vec0Statements | undefined;
  const statements = {
    vectorConfig: db.prepare<[], VectorIndexInfo>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1'),
    hasVectorTable: db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunk_vectors'"),
    chunkExists: db.prepare<[number], { id: number }>('SELECT id FROM chunks WHERE id = ?'),
    slotVersion: db.prepare<[number], { version: number }>('SELECT version FROM chunk_vector_slots WHERE slot = ?'),
    bump: db.prepare<[number], { version: number }>(
      'INSERT INTO chunk_vector_slots (slot, version) VALUES (?, 1) ON CONFLICT (slot) DO UPDATE SET version = version + 1 RETURNING version',
    ),
    goneIds: db.prepare<[number], { chunk_id: number }>('SELECT chunk_id FROM chunk_vector_gone ORDER BY chunk_id LIMIT ?'),
    forgetGone: db.prepare<[string]>('DELETE FROM chunk_vector_gone WHERE chunk_id IN (SELECT value FROM json_each(?))'),
    vec0: (): Vec0Statements => (vec0 ??= prepareVec0(db)),
    /** After the table is recreated: its statements are made again at next use. */
    forgetVec0: (): void => {
      vec0 = undefined;
    },
  };
  return statements;
}

export type VectorStatements = ReturnType<typeof vectorStatements>;

/** What a knowledge base's graph is built from, read from the table. */
export function graphSource(s: VectorStatements): VectorGraphSource {
  return {
    version: (slot) => s.slotVersion.get(slot)?.version ?? 0,
    count: (slot) => s.vec0().count.get(BigInt(slot))?.n ?? 0,
    *vectors(slot) {
      for (const row of s.vec0().all.iterate(BigInt(slot))) yield { id: row.id, vector: floats(row.embedding) };
    },
  };
}
