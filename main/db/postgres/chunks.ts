import type { ChunksRepo } from '../repositories/chunks.js';
import { createChunkRows } from '../repositories/chunks/rows.js';
import { createSlots } from '../repositories/chunks/slots.js';
import { createUnready } from '../repositories/chunks/unready.js';
import { createPostgresFullText } from './chunks/fulltext.js';
import { createPostgresTermStats } from './chunks/term-stats.js';
import { createPostgresVectors } from './chunks/vectors.js';
import type { PostgresDb } from './connection.js';

/**
 * The chunks repository on PostgreSQL: the same type as SQLite's (`ChunksRepo`, checked below),
 * so main/search and the core run on it unchanged. Rows, id slots and unready runs are SQLite's
 * code, whose SQL the connection translates; keyword search is PostgreSQL's full-text search
 * (./chunks/fulltext.ts) and vectors are pgvector's (./chunks/vectors.ts). Nothing runs in
 * worker threads of this process: the server runs the searches.
 */
export function createPostgresChunkStore(db: PostgresDb, now: () => Date = () => new Date(), log?: (line: string) => void): ChunksRepo {
  const slots = createSlots(db);
  const unready = createUnready(db);
  const { reserveIds: _reserveIds, ...ranges } = slots;
  const { addUnready: _addUnready, forgetUnready: _forgetUnready, ...unreadyReads } = unready;
  const vectors = createPostgresVectors(db, now, unready, log);
  const { stopTermStats, ...termStats } = createPostgresTermStats(db, slots, now);
  const store = {
    ...createChunkRows(db, slots, unready),
    ...ranges,
    ...unreadyReads,
    ...termStats,
    ...createPostgresFullText(db, unready, termStats.docFreq),
    ...vectors,
    /** Cancels a term statistics refresh under way (the server keeps its indexes itself: nothing else runs in the background). */
    stopBackgroundWork: (): Promise<void> => stopTermStats(),
  } satisfies ChunksRepo;
  return store;
}
