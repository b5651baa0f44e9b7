import type { SqlDb as Db } from '../../sql.js';

/** Chunk ids are `slot × 2^32 + n` (see migration 050): a knowledge base owns one id range. */
export const KB_SLOT_BITS = 32;
export const SLOT_SPAN = 2 ** KB_SLOT_BITS;
/** Keeps every id a safe JavaScript integer (slot × 2^32 + n < 2^53). */
export const MAX_KB_SLOT = 2 ** (53 - KB_SLOT_BITS) - 1;

export interface KbRange {
  kb_id: string;
  slot: number;
  /** First and last id this knowledge base can hold. */
  lo: number;
  hi: number;
  /** Chunks ever inserted into it (deleted ones included): a cheap size estimate. */
  inserted: number;
}

export function slotRange(slot: number): { lo: number; hi: number } {
  return { lo: slot * SLOT_SPAN, hi: slot * SLOT_SPAN + (SLOT_SPAN - 1) };
}

export function slotOf(chunkId: number): number {
  return Math.floor(chunkId / SLOT_SPAN);
}

/** A chunk's label in its knowledge base's HNSW graph: the low 32 bits of its id (hnswlib labels are 32-bit here; the slot is the graph). */
export function graphLabel(chunkId: number): number {
  return chunkId - slotOf(chunkId) * SLOT_SPAN;
}

/** Id slots: which id range each knowledge base owns, and reserving ids inside it. */
export function createSlots(db: Db) {
  // Inserted only when missing: PostgreSQL's identity would spend a slot on every conflicting insert (one per batch ingested).
  const ensureKb = db.prepare<[string, string]>('INSERT INTO chunk_kbs (kb_id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM chunk_kbs WHERE kb_id = ?) ON CONFLICT (kb_id) DO NOTHING');
  const reserve = db.prepare<[number, string], { slot: number; next_seq: number }>(
    'UPDATE chunk_kbs SET next_seq = next_seq + ? WHERE kb_id = ? RETURNING slot, next_seq',
  );
  const kbRow = db.prepare<[string], { slot: number; next_seq: number }>('SELECT slot, next_seq FROM chunk_kbs WHERE kb_id = ?');
  const allKbs = db.prepare<[], { kb_id: string; slot: number; next_seq: number }>('SELECT kb_id, slot, next_seq FROM chunk_kbs ORDER BY slot');
  const insertedTotal = db.prepare<[], { n: number | null }>('SELECT sum(next_seq) AS n FROM chunk_kbs');

  return {
    /** The first of `count` fresh ids in the knowledge base's range (call inside a transaction). */
    reserveIds(kbId: string, count: number): number {
      ensureKb.run(kbId, kbId);
      const reserved = reserve.get(count, kbId);
      if (!reserved) throw new Error(`No chunk range for knowledge base ${kbId}`);
      if (reserved.slot > MAX_KB_SLOT) throw new Error('Too many knowledge bases for the chunk id space');
      if (reserved.next_seq > SLOT_SPAN) throw new Error(`Knowledge base ${kbId} has used up its chunk ids`);
      return reserved.slot * SLOT_SPAN + reserved.next_seq - count;
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
  };
}

export type Slots = ReturnType<typeof createSlots>;
