import { z } from 'zod';
import { indexedText } from '../../../../shared/words.js';
import type { SqlDb as Db, SqlStatement } from '../../sql.js';
import { jsonColumnOr } from '../decode.js';
import type { Chunk, ChunkLocation } from './chunk.js';
import type { Slots } from './slots.js';
import { searchableId, type Unready } from './unready.js';

/** Rows per INSERT statement: one statement per batch keeps FTS5 indexing about twice as fast as row by row. */
const INSERT_BATCH = 100;

export interface ChunkRow {
  id: number;
  ord: number;
  text: string;
  location: string;
}

/** A chunk as read back: its location decoded. */
export type ChunkRecord = Omit<ChunkRow, 'location'> & { location: ChunkLocation };

/** A chunk found by id, with the file it is in. */
export interface ChunkHitRecord {
  id: number;
  kb_id: string;
  artifact_id: string;
  artifact_key: string;
  text: string;
  /** The text as the keyword index read it where its script is written without spaces (migration 220), else null. */
  words: string | null;
  location: ChunkLocation;
}

type ChunkHitRow = Omit<ChunkHitRecord, 'location'> & { location: string };

/**
 * A stored location only informs (a citation's page, a heading): a field that does not hold what
 * ingest wrote is left out, and a value that is not a JSON object reads as the file's start, so a
 * bad one never fails a search or a passage.
 */
const Location = z.object({
  page: z.number().int().optional().catch(undefined),
  page_end: z.number().int().optional().catch(undefined),
  section: z.string().optional().catch(undefined),
  row_start: z.number().int().optional().catch(undefined),
  row_end: z.number().int().optional().catch(undefined),
  start: z.number().int().catch(0),
  end: z.number().int().catch(0),
});
const NOWHERE: ChunkLocation = { start: 0, end: 0 };

function decodeLocation<R extends { location: string }>(row: R): Omit<R, 'location'> & { location: ChunkLocation } {
  return { ...row, location: jsonColumnOr(Location, row.location, NOWHERE) };
}

/**
 * Chunk rows: writing an artifact's chunks (the migration's triggers keep the keyword index in
 * step) and reading them back for hits, passages and openings.
 */
export function createChunkRows(db: Db, slots: Slots, unready: Unready) {
  const artifactKb = db.prepare<[string], { kb_id: string }>('SELECT kb_id FROM artifacts WHERE id = ?');
  const deleteArtifact = db.prepare('DELETE FROM chunks WHERE artifact_id = ?');
  // Only chunks of ready files: a file's vectors are made once it is ready, never while it is processed.
  const chunksAfter = db.prepare<[number, number, number], { id: number; text: string }>(
    `SELECT id, text FROM chunks WHERE id > ? AND id <= ? AND ${searchableId('chunks.id')} ORDER BY id LIMIT ?`,
  );
  const around = db.prepare<[number, number, number], ChunkRow>(
    `SELECT n.id, n.ord, n.text, n.location FROM chunks c JOIN chunks n ON n.artifact_id = c.artifact_id
     WHERE c.id = ? AND n.ord BETWEEN c.ord - ? AND c.ord + ? ORDER BY n.ord`,
  );
  const opening = db.prepare<[string, number], ChunkRow>('SELECT id, ord, text, location FROM chunks WHERE artifact_id = ? ORDER BY ord LIMIT ?');
  const hit = db.prepare<[number], ChunkHitRow>(
    `SELECT c.id, c.kb_id, c.artifact_id, a.key AS artifact_key, c.text, w.words, c.location
     FROM chunks c JOIN artifacts a ON a.id = c.artifact_id LEFT JOIN chunk_words w ON w.id = c.id WHERE c.id = ?`,
  );

  // A ready file parsed again (artifacts.replacing, migration 200): its new chunks are the ones in its unready runs.
  const inOwnRuns = 'EXISTS (SELECT 1 FROM chunk_unready u WHERE u.artifact_id = chunks.artifact_id AND chunks.id BETWEEN u.lo AND u.hi)';
  const deleteUnreadyOf = db.prepare(`DELETE FROM chunks WHERE artifact_id = ? AND ${inOwnRuns}`);
  const deleteSearchableOf = db.prepare(`DELETE FROM chunks WHERE artifact_id = ? AND NOT ${inOwnRuns}`);

  const insertWords = db.prepare<[number, string]>('INSERT INTO chunk_words (id, words) VALUES (?, ?)');
  const inserts = new Map<number, SqlStatement>();
  const insertStatement = (rows: number): SqlStatement => {
    let statement = inserts.get(rows);
    if (!statement) {
      statement = db.prepare(`INSERT INTO chunks (id, artifact_id, kb_id, ord, text, location) VALUES ${Array(rows).fill('(?, ?, ?, ?, ?, ?)').join(', ')}`);
      inserts.set(rows, statement);
    }
    return statement;
  };

  /** Inserts `chunks` with fresh ids of the knowledge base; returns the ids (inside a transaction). */
  const insertChunks = (artifactId: string, kbId: string, chunks: readonly Chunk[]): number[] => {
    if (chunks.length === 0) return [];
    const first = slots.reserveIds(kbId, chunks.length);
    const ids = chunks.map((_, i) => first + i);
    for (let start = 0; start < chunks.length; start += INSERT_BATCH) {
      const batch = chunks.slice(start, start + INSERT_BATCH);
      const params: Array<string | number> = [];
      batch.forEach((chunk, i) => {
        const id = first + start + i;
        // What the keyword index reads instead of the text where it holds Chinese, Japanese, Thai…: written before the chunk, whose insert reads it (migration 220).
        const words = indexedText(chunk.text);
        if (words !== null) insertWords.run(id, words);
        params.push(id, artifactId, kbId, chunk.ord, chunk.text, JSON.stringify(chunk.location));
      });
      insertStatement(batch.length).run(params);
    }
    // Not searchable until the artifact is ready (migration 190).
    unready.addUnready(artifactId, first, first + chunks.length - 1);
    return ids;
  };

  return {
    /**
     * Adds chunks to an artifact's, in one transaction of their own: the ingest job writes a large
     * file batch by batch, so no write of the app waits behind one long transaction and the event
     * loop is free between batches. Returns the new ids, or null when the artifact is gone (deleted
     * meanwhile) or not in `kbId`.
     */
    appendForArtifact: (artifactId: string, kbId: string, chunks: readonly Chunk[]): number[] | null =>
      db.transaction((): number[] | null => (artifactKb.get(artifactId)?.kb_id === kbId ? insertChunks(artifactId, kbId, chunks) : null))(),

    /**
     * Replaces an artifact's chunks with `chunks`, in one transaction (a savepoint when called
     * inside one), checking that the artifact belongs to `kbId` when given. Returns the new chunk
     * ids in `chunks` order.
     */
    replaceForArtifact: (artifactId: string, kbId: string | undefined, chunks: readonly Chunk[]): number[] =>
      db.transaction((): number[] => {
        const kb = artifactKb.get(artifactId);
        if (!kb) throw new Error(`No artifact ${artifactId}`);
        if (kbId !== undefined && kb.kb_id !== kbId) throw new Error(`Artifact ${artifactId} is not in knowledge base ${kbId}`);
        deleteArtifact.run(artifactId);
        unready.forgetUnready(artifactId);
        return insertChunks(artifactId, kb.kb_id, chunks);
      })(),

    /** A file parsed again: drops the new chunks written so far (a restart, a stale parse), keeping the searchable ones. */
    dropUnreadyOf: (artifactId: string): void =>
      db.transaction(() => {
        deleteUnreadyOf.run(artifactId);
        unready.forgetUnready(artifactId);
      })(),

    /** A file parsed again: drops its old (searchable) chunks; call in the transaction that marks it ready. */
    dropSearchableOf: (artifactId: string): void => void deleteSearchableOf.run(artifactId),

    hit: (id: number): ChunkHitRecord | undefined => {
      const row = hit.get(id);
      return row && decodeLocation(row);
    },
    /** A chunk with up to `radius` neighbours on each side in its file, in reading order. */
    around: (id: number, radius: number): ChunkRecord[] => around.all(id, radius, radius).map(decodeLocation),
    /** The first `limit` chunks of a file, in reading order. */
    opening: (artifactId: string, limit: number): ChunkRecord[] => opening.all(artifactId, limit).map(decodeLocation),
    /** Chunks of ready artifacts in (afterId, hi], in id order. */
    chunksAfter: (afterId: number, hi: number, limit: number): Array<{ id: number; text: string }> => chunksAfter.all(afterId, hi, limit),
  };
}
