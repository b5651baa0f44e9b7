import { slotRange } from '../../repositories/chunks/slots.js';
import { searchableId, type Unready } from '../../repositories/chunks/unready.js';
import type { VectorIndexInfo } from '../../repositories/chunks/vector-statements.js';
import type { PostgresDb } from '../connection.js';

/** pgvector indexes `vector` columns of at most this many dimensions with HNSW; wider ones are searched exactly. */
const HNSW_MAX_DIMENSIONS = 2_000;
/** Any number of the same meaning to every Parley: the lock under which one instance (re)creates the vectors table. */
const VECTOR_TABLE_LOCK = 0x70766563; // "pvec"

type Neighbour = { id: number; distance: number };

/** A vector as pgvector reads it: `[x,y,…]`, each float32 written so it reads back exactly. */
const literal = (vector: Float32Array) => `[${Array.from(vector).join(',')}]`;

/**
 * Chunk vectors on PostgreSQL with pgvector: `chunk_vectors (chunk_id, embedding vector(n))`,
 * made when the first vectors of a model come, with an HNSW index by cosine distance (the
 * distance SQLite's vec0 table and hnswlib graphs use). Its rows go with their chunks (a foreign
 * key), so nothing sweeps deleted chunks' vectors. Without pgvector on the server vectors are
 * unavailable (`vectorsAvailable()` false: hybrid search is a 409, main/search/rank.ts).
 */
export function createPostgresVectors(db: PostgresDb, now: () => Date, unready: Pick<Unready, 'hasUnready'>, log: (line: string) => void = (line) => console.warn(line)) {
  let available: boolean | undefined;
  /** Whether pgvector's HNSW scans can go on past the candidates filtered out (0.8 on). */
  let iterative = false;

  const vectorIndex = (): VectorIndexInfo | undefined =>
    db.query<VectorIndexInfo>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1').rows[0];
  const hasVectorTable = (): boolean => db.query<{ ok: number }>("SELECT to_regclass('chunk_vectors') IS NOT NULL AS ok").rows[0]?.ok === 1;

  /** The `k` nearest of one knowledge base; `exact` reads every vector of it instead of the HNSW index. */
  const nearestIn = (query: string, slot: number, k: number, exact: boolean): Neighbour[] => {
    const { lo, hi } = slotRange(slot);
    const filter = unready.hasUnready(lo, hi) ? ` AND ${searchableId('chunk_vectors.chunk_id')}` : '';
    return db.transaction(() => {
      // The index's candidate list at least as long as the answer, and its scan continued past
      // other knowledge bases' vectors (and unready chunks') until `k` are found (pgvector 0.8).
      // (Before 0.8 there is no such setting, and setting it is an error: its scan stops at ef_search candidates.)
      db.query(
        `SELECT set_config('hnsw.ef_search', $1, true), set_config('enable_indexscan', $2, true)${iterative ? ", set_config('hnsw.iterative_scan', 'relaxed_order', true)" : ''}`,
        [String(Math.min(1_000, Math.max(40, k))), exact ? 'off' : 'on'],
      );
      return db.query<Neighbour>(
        `SELECT chunk_id AS id, embedding <=> $1::vector AS distance FROM chunk_vectors
         WHERE chunk_id BETWEEN $2 AND $3${filter} ORDER BY embedding <=> $1::vector LIMIT $4`,
        [query, lo, hi, k],
      ).rows;
    })();
  };

  const ready = (): boolean => vectors.vectorsAvailable() && hasVectorTable() && vectorIndex() !== undefined;

  const vectors = {
    /** Whether the server has pgvector: created in this database at first ask (once; a server without it is said in the log). */
    vectorsAvailable(): boolean {
      if (available !== undefined) return available;
      try {
        db.transaction(() => db.query('CREATE EXTENSION IF NOT EXISTS vector'))();
        available = true;
      } catch (error) {
        // Two instances creating it at once: the other one's is there.
        available = db.query<{ ok: number }>("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS ok").rows[0]?.ok === 1;
        if (!available) log(`[vectors] this PostgreSQL server has no pgvector (${error instanceof Error ? error.message : String(error)}): keyword search only`);
      }
      if (available) {
        const version = db.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'").rows[0]?.v ?? '0';
        const [major = 0, minor = 0] = version.split('.').map(Number);
        iterative = major > 0 || minor >= 8;
      }
      return available;
    },

    vectorIndex,
    hasVectorTable,

    /**
     * Creates the vectors table for this model and dimension. A different model or dimension than
     * the table's drops the old vectors. Returns whether the table was (re)created.
     */
    ensureVectorTable(model: string, dimensions: number): boolean {
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`Invalid embedding dimension ${dimensions}`);
      const same = () => {
        const current = vectorIndex();
        return current?.model === model && current.dimensions === dimensions && hasVectorTable();
      };
      if (same()) return false;
      if (!vectors.vectorsAvailable()) throw new Error('This PostgreSQL server has no pgvector: chunk vectors cannot be stored');
      return db.transaction(() => {
        // Instances that embed at once: the first makes the table, the others find it made.
        db.query('SELECT pg_advisory_xact_lock($1)', [VECTOR_TABLE_LOCK]);
        if (same()) return false;
        db.query('DROP TABLE IF EXISTS chunk_vectors');
        db.query(`CREATE TABLE chunk_vectors (
                    chunk_id BIGINT PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
                    embedding vector(${dimensions}) NOT NULL)`);
        if (dimensions <= HNSW_MAX_DIMENSIONS) db.query('CREATE INDEX chunk_vectors_hnsw ON chunk_vectors USING hnsw (embedding vector_cosine_ops)');
        db.query(
          `INSERT INTO chunk_vector_index (id, model, dimensions, created_at) VALUES (1, $1, $2, $3)
           ON CONFLICT (id) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions, created_at = excluded.created_at`,
          [model, dimensions, now().toISOString()],
        );
        return true;
      })();
    },

    /** Chunks of ready artifacts in (afterId, hi] that have no vector yet, in id order. */
    chunksWithoutVectors: (afterId: number, hi: number, limit: number): Array<{ id: number; text: string }> =>
      db.query<{ id: number; text: string }>(
        `SELECT c.id, c.text FROM chunks c
         WHERE c.id > $1 AND c.id <= $2 AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id) AND ${searchableId('c.id')}
         ORDER BY c.id LIMIT $3`,
        [afterId, hi, limit],
      ).rows,

    /** Stores vectors; those of chunks deleted meanwhile, or embedded already, are skipped. Returns the ids stored. */
    insertVectors(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number[] {
      if (!ready()) throw new Error('No vector table: ensureVectorTable first');
      if (rows.length === 0) return [];
      const stored = new Set(
        db
          .query<{ id: number }>(
            `INSERT INTO chunk_vectors (chunk_id, embedding)
             SELECT v.id, v.e::vector FROM unnest($1::bigint[], $2::text[]) AS v(id, e) WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.id)
             ON CONFLICT (chunk_id) DO NOTHING RETURNING chunk_id AS id`,
            [rows.map((row) => row.id), rows.map((row) => literal(row.vector))],
          )
          .rows.map((row) => row.id),
      );
      return rows.filter((row) => stored.has(row.id)).map((row) => row.id);
    },

    /** The `k` nearest vectors of some knowledge bases, merged (cosine distance ascending; equal distances newest first), through the HNSW index. */
    knn(vector: Float32Array, slots: number | readonly number[], k: number): Neighbour[] {
      if (!ready()) return [];
      const query = literal(vector);
      return (typeof slots === 'number' ? [slots] : slots)
        .flatMap((slot) => nearestIn(query, slot, k, false))
        .sort((a, b) => a.distance - b.distance || b.id - a.id)
        .slice(0, k);
    },

    /** The exact `k` nearest of one knowledge base, reading all its vectors (the reference the index is measured against). */
    knnExact: (vector: Float32Array, slot: number, k: number): Neighbour[] => (ready() ? nearestIn(literal(vector), slot, k, true) : []),

    /** The HNSW index is PostgreSQL's, saved with the table: nothing to save, load or stop. */
    saveVectorIndex: (): Promise<void> => Promise.resolve(),
    vectorSearchPath: (_slot: number): 'graph' | 'exact' => (ready() && (vectorIndex()?.dimensions ?? 0) <= HNSW_MAX_DIMENSIONS ? 'graph' : 'exact'),
    warmVectorGraphs: (): void => undefined,
    stopVectorWork: (): Promise<void> => Promise.resolve(),
    vectorGraphsSettled: (): Promise<void> => Promise.resolve(),
    /** Whether searches go through an approximate (HNSW) index: pgvector's. */
    approximateVectors: (): boolean => vectors.vectorsAvailable(),
  };
  return vectors;
}
