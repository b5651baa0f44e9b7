import type { Statement } from 'better-sqlite3';
import { hasVectorExtension, type Db } from '../../connection.js';
import { slotOf } from './slots.js';

export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

const blob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/**
 * Chunk vectors (sqlite-vec, loaded where the connection opens). The vec0 table exists only once
 * an embedding model is configured, and only connections that loaded the extension can touch it.
 */
export function createVectors(db: Db, now: () => Date) {
  const vectorConfig = db.prepare<[], VectorIndexInfo>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1');
  const hasVectorTable = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunk_vectors'");
  const chunkExists = db.prepare<[number], { id: number }>('SELECT id FROM chunks WHERE id = ?');
  let statements:
    | {
        insert: Statement<[bigint, bigint, Buffer]>;
        knn: Statement<[Buffer, number, bigint], { id: number; distance: number }>;
        missing: Statement<[number, number, number], { id: number; text: string }>;
        deleteForArtifact: Statement<[string]>;
      }
    | undefined;
  const prepared = () => {
    statements ??= {
      insert: db.prepare('INSERT OR REPLACE INTO chunk_vectors (chunk_id, kb_slot, embedding) VALUES (?, ?, ?)'),
      knn: db.prepare('SELECT chunk_id AS id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? AND kb_slot = ? ORDER BY distance'),
      missing: db.prepare(
        `SELECT c.id, c.text FROM chunks c
         WHERE c.id > ? AND c.id <= ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id)
         ORDER BY c.id LIMIT ?`,
      ),
      deleteForArtifact: db.prepare('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE artifact_id = ?)'),
    };
    return statements;
  };

  const vectors = {
    /** Whether this connection could load sqlite-vec (connection.ts says why not, once). */
    vectorsAvailable: (): boolean => hasVectorExtension(db),

    vectorIndex: (): VectorIndexInfo | undefined => vectorConfig.get(),

    hasVectorTable: (): boolean => hasVectorTable.get()?.n === 1,

    /** Removes an artifact's vectors (before its chunks go, while they still say which). */
    deleteForArtifact(artifactId: string): void {
      if (!vectors.vectorsAvailable() || !vectors.hasVectorTable()) return;
      prepared().deleteForArtifact.run(artifactId);
    },

    /**
     * Creates the vec0 table for this model and dimension. A different model or dimension than
     * the table's drops the old vectors. Returns whether the table was (re)created.
     */
    ensureVectorTable(model: string, dimensions: number): boolean {
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`Invalid embedding dimension ${dimensions}`);
      const current = vectorConfig.get();
      if (current && current.model === model && current.dimensions === dimensions && vectors.hasVectorTable()) return false;
      db.transaction(() => {
        db.exec('DROP TABLE IF EXISTS chunk_vectors');
        db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(
                   chunk_id INTEGER PRIMARY KEY,
                   kb_slot INTEGER PARTITION KEY,
                   embedding FLOAT[${dimensions}] distance_metric=cosine)`);
        db.prepare(
          `INSERT INTO chunk_vector_index (id, model, dimensions, created_at) VALUES (1, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions, created_at = excluded.created_at`,
        ).run(model, dimensions, now().toISOString());
      })();
      statements = undefined;
      return true;
    },

    /** Chunks in (afterId, hi] that have no vector yet, in id order. */
    chunksWithoutVectors: (afterId: number, hi: number, limit: number) => prepared().missing.all(afterId, hi, limit),

    /** Stores vectors; those of chunks deleted meanwhile are skipped. Returns how many were stored. */
    insertVectors(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number {
      const s = prepared();
      return db.transaction(() => {
        let stored = 0;
        for (const row of rows) {
          if (!chunkExists.get(row.id)) continue;
          stored++;
          s.insert.run(BigInt(row.id), BigInt(slotOf(row.id)), blob(row.vector));
        }
        return stored;
      })();
    },

    /** The `k` nearest vectors of one knowledge base (cosine distance, ascending). */
    knn: (vector: Float32Array, slot: number, k: number) => prepared().knn.all(blob(vector), k, BigInt(slot)),
  };
  return vectors;
}
