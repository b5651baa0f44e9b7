import type { Statement } from 'better-sqlite3';
import { hasVectorExtension, type Db } from '../../connection.js';
import { createAnn, DEFAULT_ANN, type AnnParams } from './ann.js';
import { slotOf, slotRange } from './slots.js';
import { inRuns, searchableId, type Unready } from './unready.js';

export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

const blob = (vector: Float32Array) => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
/** A copy: SQLite's buffer need not be 4-byte aligned. */
const floats = (buffer: Buffer) => new Float32Array(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength));
const GONE_BATCH = 10_000;

export interface VectorOptions {
  /** HNSW parameters (tests and the bench tune them). */
  ann?: Partial<AnnParams>;
  /** Where graphs are built and loaded: in a worker thread (default for a database file) or in place. */
  annBuild?: 'background' | 'inline';
  /** A better-sqlite3 build for another ABI (Electron's), for the background worker's connection. */
  nativeBinding?: string | undefined;
  /** Where a failed background build is said. */
  log?: (line: string) => void;
  /** How long shutdown waits for the vector graphs to be saved (default 60 s). */
  shutdownSaveMs?: number | undefined;
}

/**
 * Chunk vectors (sqlite-vec, loaded where the connection opens). The vec0 table exists only once
 * an embedding model is configured, and only connections that loaded the extension can touch it.
 * It is the source of truth; searches go through an HNSW graph per knowledge base (ann.ts) kept
 * in step with it, and fall back to sqlite-vec's exact kNN where no graph can be built.
 */
export function createVectors(db: Db, now: () => Date, unready: Pick<Unready, 'hasUnready' | 'unreadyRuns'>, options: VectorOptions = {}) {
  const vectorConfig = db.prepare<[], VectorIndexInfo>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1');
  const hasVectorTable = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunk_vectors'");
  const chunkExists = db.prepare<[number], { id: number }>('SELECT id FROM chunks WHERE id = ?');
  const slotVersion = db.prepare<[number], { version: number }>('SELECT version FROM chunk_vector_slots WHERE slot = ?');
  const bump = db.prepare<[number], { version: number }>(
    'INSERT INTO chunk_vector_slots (slot, version) VALUES (?, 1) ON CONFLICT (slot) DO UPDATE SET version = version + 1 RETURNING version',
  );
  const goneIds = db.prepare<[number], { chunk_id: number }>('SELECT chunk_id FROM chunk_vector_gone ORDER BY chunk_id LIMIT ?');
  const forgetGone = db.prepare<[string]>('DELETE FROM chunk_vector_gone WHERE chunk_id IN (SELECT value FROM json_each(?))');
  const file = db.name && db.name !== ':memory:' && !db.memory ? db.name : undefined;
  const ann = createAnn(
    file ? `${file}.vectors` : undefined,
    {
      version: (slot) => slotVersion.get(slot)?.version ?? 0,
      count: (slot) => prepared().count.get(BigInt(slot))?.n ?? 0,
      *vectors(slot) {
        for (const row of prepared().all.iterate(BigInt(slot))) yield { id: row.id, vector: floats(row.embedding) };
      },
    },
    { ...DEFAULT_ANN, ...options.ann },
    { dbFile: file, nativeBinding: options.nativeBinding, build: options.annBuild ?? 'background', shutdownSaveMs: options.shutdownSaveMs, log: options.log ?? ((line) => console.warn(line)) },
  );
  let statements:
    | {
        insert: Statement<[bigint, bigint, Buffer]>;
        has: Statement<[bigint], { one: number }>;
        knn: Statement<[Buffer, number, bigint], { id: number; distance: number }>;
        missing: Statement<[number, number, number], { id: number; text: string }>;
        deleteIds: Statement<[string]>;
        count: Statement<[bigint], { n: number }>;
        all: Statement<[bigint], { id: number; embedding: Buffer }>;
      }
    | undefined;
  const prepared = () => {
    statements ??= {
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
    return statements;
  };

  /** Whether the vectors can be read and written here, with the graphs following the table's model. */
  const ready = (): boolean => {
    if (!vectors.vectorsAvailable() || !vectors.hasVectorTable()) return false;
    const info = vectorConfig.get();
    if (!info) return false;
    ann.use(info.model, info.dimensions);
    return true;
  };

  /** The `k` nearest vectors of one knowledge base (`query` is `vector` as hnswlib takes it), the caller having checked `ready()`. */
  const nearestIn = (vector: Float32Array, query: number[], slot: number, k: number): Array<{ id: number; distance: number }> => {
    // Vectors are made only for ready files' chunks, but a file that left `ready` keeps its own
    // until it is processed again: the chunks of files not ready are never candidates.
    const { lo, hi } = slotRange(slot);
    const runs = unready.hasUnready(lo, hi) ? unready.unreadyRuns(lo, hi) : [];
    const searchable = runs.length > 0 ? (id: number) => !inRuns(runs, id) : undefined;
    const approximate = ann.search(vector, slot, k, searchable, query);
    if (approximate) return approximate;
    if (!searchable) return vectors.knnExact(vector, slot, k);
    // sqlite-vec's kNN takes no such filter: ask for enough more (its k is at most 4,096) and leave them out.
    const unreadyCount = runs.reduce((n, r) => n + r.hi - r.lo + 1, 0);
    return vectors
      .knnExact(vector, slot, Math.min(4_096, k + unreadyCount))
      .filter((n) => searchable(n.id))
      .slice(0, k);
  };

  /** Commits `write` with a version bump per knowledge base it touched, then brings the graphs along. */
  const changeVectors = (bySlot: Map<number, { added: Array<{ id: number; vector: Float32Array }>; removed: number[] }>, write: () => void) => {
    const versions = new Map<number, { from: number; to: number }>();
    db.transaction(() => {
      write();
      for (const slot of bySlot.keys()) {
        const to = bump.get(slot)?.version ?? 1;
        versions.set(slot, { from: to - 1, to });
      }
    })();
    for (const [slot, change] of bySlot) {
      const v = versions.get(slot);
      if (v) ann.apply(slot, v.from, v.to, change.added, change.removed);
    }
  };

  /** Takes the vectors of deleted chunks (queued by migration 170's trigger) out of the table and the graphs. */
  const sweepGone = () => {
    for (;;) {
      const ids = goneIds.all(GONE_BATCH).map((r) => r.chunk_id);
      if (ids.length === 0) return;
      const bySlot = new Map<number, { added: never[]; removed: number[] }>();
      for (const id of ids) {
        const slot = slotOf(id);
        const entry = bySlot.get(slot) ?? { added: [], removed: [] };
        entry.removed.push(id);
        bySlot.set(slot, entry);
      }
      const json = JSON.stringify(ids);
      changeVectors(bySlot, () => {
        prepared().deleteIds.run(json);
        forgetGone.run(json);
      });
      if (ids.length < GONE_BATCH) return;
    }
  };

  const vectors = {
    /** Whether this connection could load sqlite-vec (connection.ts says why not, once). */
    vectorsAvailable: (): boolean => hasVectorExtension(db),

    vectorIndex: (): VectorIndexInfo | undefined => vectorConfig.get(),

    hasVectorTable: (): boolean => hasVectorTable.get()?.n === 1,


    /**
     * Creates the vec0 table for this model and dimension. A different model or dimension than
     * the table's drops the old vectors. Returns whether the table was (re)created.
     */
    ensureVectorTable(model: string, dimensions: number): boolean {
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`Invalid embedding dimension ${dimensions}`);
      const current = vectorConfig.get();
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
      statements = undefined;
      return true;
    },

    /** Chunks of ready artifacts in (afterId, hi] that have no vector yet, in id order. */
    chunksWithoutVectors: (afterId: number, hi: number, limit: number) => prepared().missing.all(afterId, hi, limit),

    /**
     * Stores vectors; those of chunks deleted meanwhile, or embedded already (another pass got
     * there first), are skipped. Returns the ids stored.
     */
    insertVectors(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number[] {
      if (!ready()) throw new Error('No vector table: ensureVectorTable first');
      sweepGone();
      const s = prepared();
      const bySlot = new Map<number, { added: Array<{ id: number; vector: Float32Array }>; removed: never[] }>();
      for (const row of rows) {
        const slot = slotOf(row.id);
        const entry = bySlot.get(slot) ?? { added: [], removed: [] };
        entry.added.push(row);
        bySlot.set(slot, entry);
      }
      // The graphs are made current first, so these vectors join them incrementally.
      for (const slot of bySlot.keys()) ann.warm(slot);
      const stored: number[] = [];
      changeVectors(bySlot, () => {
        for (const entry of bySlot.values()) {
          entry.added = entry.added.filter((row) => chunkExists.get(row.id) !== undefined && s.has.get(BigInt(row.id)) === undefined);
          for (const row of entry.added) {
            s.insert.run(BigInt(row.id), BigInt(slotOf(row.id)), blob(row.vector));
            stored.push(row.id);
          }
        }
      });
      return stored;
    },

    /**
     * The `k` nearest vectors of one knowledge base, or of several merged (cosine distance,
     * ascending; equal distances newest first): from each one's HNSW graph (approximate), or
     * exactly where hnswlib cannot run. Several at once check the table and sweep deleted
     * vectors once, and hand hnswlib one copy of the question's vector, instead of once a graph.
     */
    knn(vector: Float32Array, slots: number | readonly number[], k: number): Array<{ id: number; distance: number }> {
      if (!ready()) return [];
      sweepGone();
      const query = Array.from(vector);
      return (typeof slots === 'number' ? [slots] : slots)
        .flatMap((slot) => nearestIn(vector, query, slot, k))
        .sort((a, b) => a.distance - b.distance || b.id - a.id)
        .slice(0, k);
    },

    /** sqlite-vec's exact kNN, reading every vector of the knowledge base (the bench's reference). */
    knnExact: (vector: Float32Array, slot: number, k: number): Array<{ id: number; distance: number }> => prepared().knn.all(blob(vector), k, BigInt(slot)),

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
