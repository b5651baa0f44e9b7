import type { Statement } from 'better-sqlite3';
import type { Db } from '../connection.js';
import type { Chunk } from '../../core/ingest/types.js';

/** Chunk ids are `slot × 2^32 + n` (see migration 050): a knowledge base owns one id range. */
export const KB_SLOT_BITS = 32;
const SLOT_SPAN = 2 ** KB_SLOT_BITS;
/** Keeps every id a safe JavaScript integer (slot × 2^32 + n < 2^53). */
export const MAX_KB_SLOT = 2 ** (53 - KB_SLOT_BITS) - 1;

/** Rows per INSERT statement: one statement per batch keeps FTS5 indexing about twice as fast as row by row. */
const INSERT_BATCH = 100;

/** Terms in at least this many chunks are kept in `chunk_terms`; rarer ones are counted live. */
export const DEFAULT_TERM_STATS_MIN_DF = 200;

const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** Words already stemmed, by any connection: the tokenizer is the same everywhere. */
const STEMS = new Map<string, string[]>();
const MAX_CACHED_STEMS = 50_000;

export interface KbRange {
  kb_id: string;
  slot: number;
  /** First and last id this knowledge base can hold. */
  lo: number;
  hi: number;
  /** Chunks ever inserted into it (deleted ones included): a cheap size estimate. */
  inserted: number;
}

export interface ScoredId {
  id: number;
  /** FTS5 bm25(): negative, lower is better. */
  bm25: number;
}

export interface ChunkHitRow {
  id: number;
  kb_id: string;
  artifact_id: string;
  artifact_key: string;
  text: string;
  location: string;
}

export interface VectorIndexInfo {
  model: string;
  dimensions: number;
}

export interface TermStatsRefresh {
  terms: number;
  chunks_inserted: number;
  ms: number;
}

export function slotRange(slot: number): { lo: number; hi: number } {
  return { lo: slot * SLOT_SPAN, hi: slot * SLOT_SPAN + (SLOT_SPAN - 1) };
}

export function slotOf(chunkId: number): number {
  return Math.floor(chunkId / SLOT_SPAN);
}

export function createChunksRepo(db: Db) {
  const artifactKb = db.prepare<[string], { kb_id: string }>('SELECT kb_id FROM artifacts WHERE id = ?');
  const ensureKb = db.prepare('INSERT INTO chunk_kbs (kb_id) VALUES (?) ON CONFLICT (kb_id) DO NOTHING');
  const reserve = db.prepare<[number, string], { slot: number; next_seq: number }>(
    'UPDATE chunk_kbs SET next_seq = next_seq + ? WHERE kb_id = ? RETURNING slot, next_seq',
  );
  const deleteArtifact = db.prepare('DELETE FROM chunks WHERE artifact_id = ?');
  const kbRow = db.prepare<[string], { slot: number; next_seq: number }>('SELECT slot, next_seq FROM chunk_kbs WHERE kb_id = ?');
  const allKbs = db.prepare<[], { kb_id: string; slot: number; next_seq: number }>('SELECT kb_id, slot, next_seq FROM chunk_kbs ORDER BY slot');
  const countRange = db.prepare<[number, number], { n: number }>('SELECT count(*) AS n FROM chunks WHERE id BETWEEN ? AND ?');
  const insertedTotal = db.prepare<[], { n: number | null }>('SELECT sum(next_seq) AS n FROM chunk_kbs');
  const chunksAfter = db.prepare<[number, number, number], { id: number; text: string }>('SELECT id, text FROM chunks WHERE id > ? AND id <= ? ORDER BY id LIMIT ?');
  const chunkExists = db.prepare<[number], { id: number }>('SELECT id FROM chunks WHERE id = ?');
  const byArtifact = db.prepare<[string], { id: number; ord: number; text: string; location: string }>(
    'SELECT id, ord, text, location FROM chunks WHERE artifact_id = ? ORDER BY ord',
  );

  const inserts = new Map<number, Statement>();
  const insertStatement = (rows: number): Statement => {
    let statement = inserts.get(rows);
    if (!statement) {
      statement = db.prepare(`INSERT INTO chunks (id, artifact_id, kb_id, ord, text, location) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`);
      inserts.set(rows, statement);
    }
    return statement;
  };

  // Term statistics.
  const termDf = db.prepare<[string], { df: number }>('SELECT df FROM chunk_terms WHERE term = ?');
  const liveDf = db.prepare<[string], { doc: number }>('SELECT doc FROM chunks_vocab WHERE term = ?');
  const liveCounts = new Map<string, { df: number; inserted: number }>();
  const statsMeta = db.prepare<[], { chunk_count: number; min_df: number }>('SELECT chunk_count, min_df FROM chunk_terms_meta WHERE id = 1');

  // Search. Rowids reach FTS5 as BigInt: better-sqlite3 binds numbers as REAL, and FTS5 ignores a
  // `rowid = ?` constraint whose value is REAL (every match comes back), so integers it is.
  // The inner query visits at most `cap` matches (newest first) and scores only those;
  // the outer one keeps the best. FTS5 consumes the rowid range and the rowid order itself.
  const rank = db.prepare<[string, bigint, bigint, number, number], ScoredId>(
    `SELECT id, bm25 FROM (
       SELECT rowid AS id, bm25(chunks_fts) AS bm25 FROM chunks_fts
       WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ?
     ) ORDER BY bm25 LIMIT ?`,
  );
  const matchIds = db.prepare<[string, bigint, bigint, number], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ?',
  );
  const presentAmong = db.prepare<[string, string], { id: number }>(
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
  );
  const around = db.prepare<[number, number, number], { id: number; ord: number; text: string; location: string }>(
    `SELECT n.id, n.ord, n.text, n.location FROM chunks c JOIN chunks n ON n.artifact_id = c.artifact_id
     WHERE c.id = ? AND n.ord BETWEEN c.ord - ? AND c.ord + ? ORDER BY n.ord`,
  );
  const opening = db.prepare<[string, number], { id: number; ord: number; text: string; location: string }>(
    'SELECT id, ord, text, location FROM chunks WHERE artifact_id = ? ORDER BY ord LIMIT ?',
  );
  const hit = db.prepare<[number], ChunkHitRow>(
    `SELECT c.id, c.kb_id, c.artifact_id, a.key AS artifact_key, c.text, c.location
     FROM chunks c JOIN artifacts a ON a.id = c.artifact_id WHERE c.id = ?`,
  );

  // Vectors (sqlite-vec). The vec0 table exists only once an embedding model is configured, and
  // only connections that loaded the extension can touch it.
  const vectorConfig = db.prepare<[], VectorIndexInfo>('SELECT model, dimensions FROM chunk_vector_index WHERE id = 1');
  const hasVectorTable = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'chunk_vectors'");
  let vectorStatements:
    | {
        insert: Statement<[bigint, bigint, Buffer]>;
        knn: Statement<[Buffer, number, bigint], { id: number; distance: number }>;
        missing: Statement<[number, number, number], { id: number; text: string }>;
        deleteForArtifact: Statement<[string]>;
      }
    | undefined;
  const vectors = () => {
    vectorStatements ??= {
      insert: db.prepare('INSERT OR REPLACE INTO chunk_vectors (chunk_id, kb_slot, embedding) VALUES (?, ?, ?)'),
      knn: db.prepare(
        'SELECT chunk_id AS id, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? AND kb_slot = ? ORDER BY distance',
      ),
      missing: db.prepare(
        `SELECT c.id, c.text FROM chunks c
         WHERE c.id > ? AND c.id <= ? AND NOT EXISTS (SELECT 1 FROM chunk_vectors v WHERE v.chunk_id = c.id)
         ORDER BY c.id LIMIT ?`,
      ),
      deleteForArtifact: db.prepare('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE artifact_id = ?)'),
    };
    return vectorStatements;
  };

  // A per-connection scratch FTS5 table with the index's tokenizer: the only exact way to know
  // which (stemmed) terms the index holds for a word of a question.
  let stemmer: { clear: Statement; insert: Statement<[number, string]>; read: Statement<[], { term: string; doc: number }> } | undefined;
  const stemStatements = () => {
    if (!stemmer) {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer USING fts5(word, tokenize = '${FTS_TOKENIZER}');
               CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer_terms USING fts5vocab(parley_stemmer, 'instance');`);
      stemmer = {
        clear: db.prepare('DELETE FROM temp.parley_stemmer'),
        insert: db.prepare('INSERT INTO temp.parley_stemmer (rowid, word) VALUES (?, ?)'),
        read: db.prepare('SELECT term, doc FROM temp.parley_stemmer_terms ORDER BY doc, "offset"'),
      };
    }
    return stemmer;
  };

  const deleteVectorsForArtifact = (artifactId: string) => {
    if (hasVectorTable.get()?.n !== 1) return;
    try {
      vectors().deleteForArtifact.run(artifactId);
    } catch {
      // This connection has no sqlite-vec: the vectors stay behind. They are harmless (searches
      // join them with chunks, and chunk ids are never reused); pruneOrphanVectors() removes them.
    }
  };

  const repo = {
    /**
     * Replaces an artifact's chunks with `chunks`, in one transaction (a savepoint when called
     * inside one). Returns the new chunk ids in `chunks` order.
     */
    insertArtifactChunks: (artifactId: string, chunks: readonly Chunk[]): number[] => repo.replaceForArtifact(artifactId, undefined, chunks),

    /** insertArtifactChunks, checking that the artifact belongs to `kbId` when given. */
    replaceForArtifact: (artifactId: string, kbId: string | undefined, chunks: readonly Chunk[]): number[] =>
      db.transaction((): number[] => {
        const kb = artifactKb.get(artifactId);
        if (!kb) throw new Error(`No artifact ${artifactId}`);
        if (kbId !== undefined && kb.kb_id !== kbId) throw new Error(`Artifact ${artifactId} is not in knowledge base ${kbId}`);
        deleteVectorsForArtifact(artifactId);
        deleteArtifact.run(artifactId);
        if (chunks.length === 0) return [];
        ensureKb.run(kb.kb_id);
        const reserved = reserve.get(chunks.length, kb.kb_id);
        if (!reserved) throw new Error(`No chunk range for knowledge base ${kb.kb_id}`);
        if (reserved.slot > MAX_KB_SLOT) throw new Error('Too many knowledge bases for the chunk id space');
        if (reserved.next_seq > SLOT_SPAN) throw new Error(`Knowledge base ${kb.kb_id} has used up its chunk ids`);
        const first = reserved.slot * SLOT_SPAN + reserved.next_seq - chunks.length;
        const ids = chunks.map((_, i) => first + i);
        for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
          const batch = chunks.slice(start, start + INSERT_BATCH);
          const params: Array<string | number> = [];
          batch.forEach((chunk, i) => params.push(first + start + i, artifactId, kb.kb_id, chunk.ord, chunk.text, JSON.stringify(chunk.location)));
          insertStatement(batch.length).run(params);
        }
        return ids;
      })(),

    /** Deletes an artifact's chunks (the triggers take them out of the keyword index) and vectors. */
    deleteByArtifact: (artifactId: string): number =>
      db.transaction(() => {
        deleteVectorsForArtifact(artifactId);
        return deleteArtifact.run(artifactId).changes;
      })(),

    listByArtifact: (artifactId: string) => byArtifact.all(artifactId),

    countByKb(kbId: string): number {
      const kb = kbRow.get(kbId);
      if (!kb) return 0;
      const { lo, hi } = slotRange(kb.slot);
      return countRange.get(lo, hi)?.n ?? 0;
    },

    /** The id ranges of these knowledge bases; those without any chunk yet are left out. */
    kbRanges(kbIds: readonly string[]): KbRange[] {
      const ranges: KbRange[] = [];
      for (const kbId of new Set(kbIds)) {
        const kb = kbRow.get(kbId);
        if (kb) ranges.push({ kb_id: kbId, slot: kb.slot, ...slotRange(kb.slot), inserted: kb.next_seq });
      }
      return ranges;
    },

    /** Every knowledge base that has held chunks. */
    allKbRanges: (): KbRange[] => allKbs.all().map((kb) => ({ kb_id: kb.kb_id, slot: kb.slot, ...slotRange(kb.slot), inserted: kb.next_seq })),

    /** Chunks ever inserted, all knowledge bases together. */
    insertedTotal: (): number => insertedTotal.get()?.n ?? 0,

    /**
     * The index's terms for each word (FTS5's own tokenizer and stemmer, so exactly what the
     * index holds): usually one per word, none for a word of separators only.
     */
    stems(words: readonly string[]): string[][] {
      const out: string[][] = words.map((word) => STEMS.get(word) ?? []);
      const unknown = words.map((word, i) => [word, i] as const).filter(([word]) => !STEMS.has(word));
      if (unknown.length === 0) return out;
      const s = stemStatements();
      db.transaction(() => {
        s.clear.run();
        for (const [word, i] of unknown) s.insert.run(i, word);
        for (const row of s.read.all()) out[row.doc]?.push(row.term);
        s.clear.run();
      })();
      if (STEMS.size + unknown.length > MAX_CACHED_STEMS) STEMS.clear();
      for (const [word, i] of unknown) STEMS.set(word, out[i] ?? []);
      return out;
    },

    /**
     * In how many chunks a stemmed term occurs: from `chunk_terms` when it is there (possibly
     * stale by the chunks added since the last refresh), else counted live from the index, which
     * costs time in proportion to the answer and is small for terms the table does not hold.
     */
    docFreq(term: string): number {
      const stored = termDf.get(term);
      if (stored) return stored.df;
      // Counted live: remembered until the corpus has grown or shrunk by a tenth, so a common
      // term that the statistics miss (never refreshed, or new since) is counted once, not per question.
      const inserted = repo.insertedTotal();
      const cached = liveCounts.get(term);
      if (cached && Math.abs(inserted - cached.inserted) <= 0.1 * cached.inserted) return cached.df;
      const df = liveDf.get(term)?.doc ?? 0;
      if (liveCounts.size >= MAX_CACHED_STEMS) liveCounts.clear();
      liveCounts.set(term, { df, inserted });
      return df;
    },

    /** Rebuilds `chunk_terms` from the index's vocabulary (a full pass over the index: seconds at 1M chunks). */
    refreshTermStats(minDf = DEFAULT_TERM_STATS_MIN_DF): TermStatsRefresh {
      const started = performance.now();
      liveCounts.clear();
      return db.transaction(() => {
        db.prepare('DELETE FROM chunk_terms').run();
        const terms = db.prepare('INSERT INTO chunk_terms (term, df) SELECT term, doc FROM chunks_vocab WHERE doc >= ?').run(minDf).changes;
        const inserted = repo.insertedTotal();
        db.prepare(
          `INSERT INTO chunk_terms_meta (id, chunk_count, min_df, refreshed_at) VALUES (1, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET chunk_count = excluded.chunk_count, min_df = excluded.min_df, refreshed_at = excluded.refreshed_at`,
        ).run(inserted, minDf, new Date().toISOString());
        return { terms, chunks_inserted: inserted, ms: performance.now() - started };
      })();
    },

    /**
     * Refreshes term statistics once the chunks inserted since the last refresh exceed `growth`
     * of those counted then (and at least `minChunks`): meant for the ingest job, after an
     * artifact is ready. Returns whether it refreshed.
     */
    refreshTermStatsIfStale(growth = 0.1, minChunks = 5_000): boolean {
      const meta = statsMeta.get();
      const inserted = repo.insertedTotal();
      const since = inserted - (meta?.chunk_count ?? 0);
      if (since < minChunks || (meta && since < growth * meta.chunk_count)) return false;
      repo.refreshTermStats(meta?.min_df);
      return true;
    },

    /** Merges the keyword index into one segment: after bulk loads, for the fastest queries. */
    optimize: () => void db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run(),

    /**
     * bm25 top `limit` among at most `cap` matches of `match` in [lo, hi] (newest first). The
     * match expression must come from search.ts, which quotes every term.
     */
    rank: (match: string, lo: number, hi: number, cap: number, limit: number): ScoredId[] => rank.all(match, BigInt(lo), BigInt(hi), cap, limit),

    /** Matching ids in [lo, hi], newest first, without scoring. */
    matchIds: (match: string, lo: number, hi: number, limit: number): number[] => matchIds.all(match, BigInt(lo), BigInt(hi), limit).map((r) => r.id),

    /** Which of `ids` hold `match`: one rowid probe each, no scoring. */
    presentAmong: (match: string, ids: readonly number[]): number[] => presentAmong.all(match, JSON.stringify(ids)).map((r) => r.id),

    hit: (id: number): ChunkHitRow | undefined => hit.get(id),
    /** A chunk with up to `radius` neighbours on each side in its file, in reading order. */
    around: (id: number, radius: number) => around.all(id, radius, radius),
    /** The first `limit` chunks of a file, in reading order. */
    opening: (artifactId: string, limit: number) => opening.all(artifactId, limit),

    // Vectors ----------------------------------------------------------------------------------

    vectorIndex: (): VectorIndexInfo | undefined => vectorConfig.get(),

    hasVectorTable: (): boolean => hasVectorTable.get()?.n === 1,

    /**
     * Creates the vec0 table for this model and dimension (sqlite-vec must be loaded on this
     * connection). A different model or dimension than the table's drops the old vectors.
     * Returns whether the table was (re)created.
     */
    ensureVectorTable(model: string, dimensions: number): boolean {
      if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) throw new Error(`Invalid embedding dimension ${dimensions}`);
      const current = vectorConfig.get();
      if (current && current.model === model && current.dimensions === dimensions && repo.hasVectorTable()) return false;
      db.transaction(() => {
        db.exec('DROP TABLE IF EXISTS chunk_vectors');
        db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(
                   chunk_id INTEGER PRIMARY KEY,
                   kb_slot INTEGER PARTITION KEY,
                   embedding FLOAT[${dimensions}] distance_metric=cosine)`);
        db.prepare(
          `INSERT INTO chunk_vector_index (id, model, dimensions, created_at) VALUES (1, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET model = excluded.model, dimensions = excluded.dimensions, created_at = excluded.created_at`,
        ).run(model, dimensions, new Date().toISOString());
      })();
      vectorStatements = undefined;
      return true;
    },

    /** Chunks in (afterId, hi], in id order, vectors or not (before the vector table exists). */
    chunksAfter: (afterId: number, hi: number, limit: number) => chunksAfter.all(afterId, hi, limit),

    /** Chunks in (afterId, hi] that have no vector yet, in id order. */
    chunksWithoutVectors: (afterId: number, hi: number, limit: number) => vectors().missing.all(afterId, hi, limit),

    /** Stores vectors; those of chunks deleted meanwhile are skipped. Returns how many were stored. */
    insertVectors(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number {
      const v = vectors();
      return db.transaction(() => {
        let stored = 0;
        for (const row of rows) {
          if (!chunkExists.get(row.id)) continue;
          stored++;
          v.insert.run(BigInt(row.id), BigInt(slotOf(row.id)), Buffer.from(row.vector.buffer, row.vector.byteOffset, row.vector.byteLength));
        }
        return stored;
      })();
    },

    /** The `k` nearest vectors of one knowledge base (cosine distance, ascending). */
    knn: (vector: Float32Array, slot: number, k: number) =>
      vectors().knn.all(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength), k, BigInt(slot)),

    /** Removes vectors whose chunk is gone (e.g. deleted by a cascade on a connection without sqlite-vec). */
    pruneOrphanVectors: (): number =>
      db.prepare('DELETE FROM chunk_vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)').run().changes,
  };
  return repo;
}

export type ChunksRepo = ReturnType<typeof createChunksRepo>;
