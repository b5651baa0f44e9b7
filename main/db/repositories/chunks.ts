import type { Db } from '../connection.js';
import { createFullText } from './chunks/fulltext.js';
import { createChunkRows } from './chunks/rows.js';
import { createSlots } from './chunks/slots.js';
import { createTermStats } from './chunks/term-stats.js';
import { createUnready } from './chunks/unready.js';
import { createVectors } from './chunks/vectors.js';
import type { ChunkIndexPlugins } from './chunks/index-port.js';

export { KB_SLOT_BITS, MAX_KB_SLOT, slotOf, slotRange, type KbRange } from './chunks/slots.js';
export type { ChunkHitRecord, ChunkRecord, ChunkRow } from './chunks/rows.js';
export { DEFAULT_TERM_STATS_MIN_DF, type TermStatsRefresh } from './chunks/term-stats.js';
export type { ScoredId } from './chunks/fulltext.js';
export type { IdRun } from './chunks/unready.js';
export type { VectorIndexInfo } from './chunks/vectors.js';
export type { ChunkIndexPlugins, TermSnapshotReader, VectorGraphs, VectorGraphsFactory, VectorGraphSource } from './chunks/index-port.js';

/**
 * Chunks, their keyword index, term statistics and vectors: one repository assembled from one
 * part per concern (./chunks/), over one connection. `now` stamps the times it records. The SQL
 * is all here; the vector graphs and the reads run in worker threads are main/search's, plugged
 * in (`plugins`, index-port.ts: main/search/chunks.ts assembles it so); without them vectors are
 * searched exactly and term statistics refreshed in place.
 */
export function createChunkStore(db: Db, now: () => Date = () => new Date(), plugins: ChunkIndexPlugins = {}) {
  const slots = createSlots(db);
  const unready = createUnready(db);
  const { reserveIds: _reserveIds, ...ranges } = slots;
  const { addUnready: _addUnready, forgetUnready: _forgetUnready, ...unreadyReads } = unready;
  // Shutdown stops the work in worker threads (term statistics, vector graphs) before the connection closes.
  const stopping = new AbortController();
  const vectors = createVectors(db, now, unready, { graphs: plugins.graphs });
  const termStats = createTermStats(db, slots, now, { termSnapshot: plugins.termSnapshot, signal: stopping.signal });
  return {
    ...createChunkRows(db, slots, unready),
    ...ranges,
    ...unreadyReads,
    ...termStats,
    ...createFullText(db, unready),
    ...vectors,
    /** Stops what runs in worker threads and saves the vector graphs not saved yet, bounded (shutdown, before the connection closes); what was left half done is redone later. */
    async stopBackgroundWork(): Promise<void> {
      stopping.abort();
      await Promise.allSettled([vectors.stopVectorWork(), termStats.termStatsSettled()]);
    },
  };
}

export type ChunksRepo = ReturnType<typeof createChunkStore>;

/**
 * What keyword search reads of the chunks (ranges, term statistics, FTS5 ranking), over any
 * connection: the repository has all of it; a worker thread assembles just this over its own
 * read-only connection (main/search/keyword/keyword-thread.ts).
 */
export function createChunkReader(db: Db) {
  const slots = createSlots(db);
  const { kbRanges, allKbRanges, insertedTotal } = slots;
  const { stems, docFreq } = createTermStats(db, slots, () => new Date());
  const { rank, dfGiven, matchIds, chunkTokens, indexTotals } = createFullText(db, createUnready(db));
  return { kbRanges, allKbRanges, insertedTotal, stems, docFreq, rank, dfGiven, matchIds, chunkTokens, indexTotals };
}

export type ChunkReader = ReturnType<typeof createChunkReader>;
