import { hasVectorExtension, type Db } from '../../connection.js';
import { NO_GRAPHS, type VectorGraphsFactory } from './index-port.js';
import type { Unready } from './unready.js';
import { knnExact, nearestIn, vectorChanges } from './vector-changes.js';
import { graphSource, vectorStatements, type VectorIndexInfo } from './vector-statements.js';

export type { VectorIndexInfo } from './vector-statements.js';

export interface VectorOptions {
  /** The HNSW graphs searches go through (main/search plugs them in); none: exact kNN. */
  graphs?: VectorGraphsFactory | undefined;
}

/**
 * Chunk vectors (sqlite-vec, loaded where the connection opens). The vec0 table exists only once
 * an embedding model is configured, and only connections that loaded the extension can touch it.
 * It is the source of truth (vector-statements.ts; writes bump a version per knowledge base,
 * vector-changes.ts); searches go through an HNSW graph per knowledge base (main/search plugs them
 * in: index-port.ts) kept in step with it, and fall back to sqlite-vec's exact kNN where no graph
 * can be built.
 */
export function createVectors(db: Db, now: () => Date, unready: Pick<Unready, 'hasUnready' | 'unreadyRuns'>, options: VectorOptions = {}) {
  const s = vectorStatements(db);
  const file = db.name && db.name !== ':memory:' && !db.memory ? db.name : undefined;
  const ann = options.graphs ? options.graphs(file, graphSource(s)) : NO_GRAPHS;
  const changes = vectorChanges(db, s, ann);

  /** Whether the vectors can be read and written here, with the graphs following the table's model. */
  const ready = (): boolean => {
    if (!vectors.vectorsAvailable() || !vectors.hasVectorTable()) return false;
    const info = s.vectorConfig.get();
    if (!info) return false;
    ann.use(info.model, info.dimensions);
    return true;
  };

  const vectors = {
    /** Whether this connection could load sqlite-vec (connection.ts says why not, once). */
    vectorsAvailable: (): boolean => hasVectorExtension(db),

    vectorIndex: (): VectorIndexInfo | undefined => s.vectorConfig.get(),

    hasVectorTable: (): boolean => s.hasVectorTable.get()?.n === 1,

    /**
     * Creates the vec0 table for this model and dimension. A different model or dimension than
     * the table's drops the old vectors. Returns whether the table was (re)created.
     */
    ensureVectorTable(model: string, dimensions: number): boolean {
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`Invalid embedding dimension ${dimensions}`);
      const current = s.vectorConfig.get();
      if (current && current.model === model && current.dimensions === dimensions && vectors.hasVectorTable()) return false;
      ann.reset();
      db.transaction(() => {
        db.exec('DROP TABLE IF EXISTS chunk_vectors');
        // Every graph saved so far described the dropped vectors.
        db.exec('DELETE FROM chunk_vector_gone; UPDATE chunk_vector_slots SET version = version + 1;');
        db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(
                   chunk_id INTEGER PRIMARY KEY,
                   kb_slot INTEGER PARTITION KEY,
                   embedding FLOAT[${dimensions}] distance_metric=cosine)`);
        db.prepare(
          `INSERT INTO chunk_vector_index (id, model, dimensions, created_at) VALUES (1, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions, created_at = excluded.created_at`,
        ).run(model, dimensions, now().toISOString());
      })();
      s.forgetVec0();
      return true;
    },

    /** Chunks of ready artifacts in (afterId, hi] that have no vector yet, in id order. */
    chunksWithoutVectors: (afterId: number, hi: number, limit: number) => s.vec0().missing.all(afterId, hi, limit),

    /**
     * Stores vectors; those of chunks deleted meanwhile, or embedded already (another pass got
     * there first), are skipped. Returns the ids stored.
     */
    insertVectors(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number[] {
      if (!ready()) throw new Error('No vector table: ensureVectorTable first');
      changes.sweepGone();
      return changes.insert(rows);
    },

    /**
     * The `k` nearest vectors of one knowledge base, or of several merged (cosine distance,
     * ascending; equal distances newest first): from each one's HNSW graph (approximate), or
     * exactly where hnswlib cannot run. Several at once check the table and sweep deleted
     * vectors once, and hand hnswlib one copy of the question's vector, instead of once a graph.
     */
    knn(vector: Float32Array, slots: number | readonly number[], k: number): Array<{ id: number; distance: number }> {
      if (!ready()) return [];
      changes.sweepGone();
      const query = Array.from(vector);
      return (typeof slots === 'number' ? [slots] : slots)
        .flatMap((slot) => nearestIn(s, ann, unready, vector, query, slot, k))
        .sort((a, b) => a.distance - b.distance || b.id - a.id)
        .slice(0, k);
    },

    /** sqlite-vec's exact kNN, reading every vector of the knowledge base (the bench's reference). */
    knnExact: (vector: Float32Array, slot: number, k: number): Array<{ id: number; distance: number }> => knnExact(s, vector, slot, k),

    /**
     * Saves the graphs changed since last saved, so the next start loads them instead of
     * rebuilding: written on libuv's thread pool while searches go on; resolves once written
     * (never rejects: a failed save is logged and retried at the next).
     */
    saveVectorIndex: (): Promise<void> => ann.saveAll(),

    /** Whether a knowledge base's searches go through its HNSW graph now, or through exact kNN while the graph loads or is rebuilt. */
    vectorSearchPath: (slot: number): 'graph' | 'exact' => (ready() && ann.serving(slot) ? 'graph' : 'exact'),

    /** Starts loading (or rebuilding) the graph of every knowledge base with vectors, without waiting: after start-up, so the first search finds it ready. */
    warmVectorGraphs(): void {
      if (!ready()) return;
      for (const { slot } of db.prepare<[], { slot: number }>('SELECT slot FROM chunk_vector_slots').all()) ann.warm(slot);
    },

    /** Shutdown: stops loading and rebuilding graphs, then saves the graphs not saved yet (bounded), before the connection closes. */
    stopVectorWork: (): Promise<void> => ann.stop(),

    /** Resolves once no graph is being loaded or rebuilt. */
    vectorGraphsSettled: (): Promise<void> => ann.settled(),

    /** Whether searches use HNSW graphs (hnswlib-node built here) rather than exact kNN. */
    approximateVectors: (): boolean => ann.available(),
  };
  return vectors;
}
