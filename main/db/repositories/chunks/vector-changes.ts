import type { Db } from '../../connection.js';
import type { VectorGraphs } from './index-port.js';
import { slotOf, slotRange } from './slots.js';
import { inRuns, type Unready } from './unready.js';
import type { VectorStatements } from './vector-statements.js';
import { blob } from './vector-statements.js';

const GONE_BATCH = 10_000;

type SlotChange = { added: Array<{ id: number; vector: Float32Array }>; removed: number[] };

/** Groups chunk ids (or rows with one) by the knowledge base that holds them. */
function bySlotOf<T>(items: readonly T[], idOf: (item: T) => number, put: (change: SlotChange, item: T) => void): Map<number, SlotChange> {
  const bySlot = new Map<number, SlotChange>();
  for (const item of items) {
    const slot = slotOf(idOf(item));
    const entry = bySlot.get(slot) ?? { added: [], removed: [] };
    put(entry, item);
    bySlot.set(slot, entry);
  }
  return bySlot;
}

/**
 * Writes to the vectors table, each committed with a version bump per knowledge base it touched
 * and then handed to the graphs, so a graph always knows which version of the table it holds.
 */
export function vectorChanges(db: Db, s: VectorStatements, graphs: VectorGraphs) {
  /** Commits `write` with a version bump per knowledge base it touched, then brings the graphs along. */
  const changeVectors = (bySlot: Map<number, SlotChange>, write: () => void) => {
    const versions = new Map<number, { from: number; to: number }>();
    db.transaction(() => {
      write();
      for (const slot of bySlot.keys()) {
        const to = s.bump.get(slot)?.version ?? 1;
        versions.set(slot, { from: to - 1, to });
      }
    })();
    for (const [slot, change] of bySlot) {
      const v = versions.get(slot);
      if (v) graphs.apply(slot, v.from, v.to, change.added, change.removed);
    }
  };

  return {
    /** Takes the vectors of deleted chunks (queued by migration 170's trigger) out of the table and the graphs. */
    sweepGone(): void {
      for (;;) {
        const ids = s.goneIds.all(GONE_BATCH).map((r) => r.chunk_id);
        if (ids.length === 0) return;
        const json = JSON.stringify(ids);
        changeVectors(
          bySlotOf(ids, (id) => id, (change, id) => change.removed.push(id)),
          () => {
            s.vec0().deleteIds.run(json);
            s.forgetGone.run(json);
          },
        );
        if (ids.length < GONE_BATCH) return;
      }
    },

    /** Stores vectors, skipping those of chunks deleted meanwhile or embedded already; returns the ids stored. */
    insert(rows: ReadonlyArray<{ id: number; vector: Float32Array }>): number[] {
      const v = s.vec0();
      const bySlot = bySlotOf(rows, (row) => row.id, (change, row) => change.added.push(row));
      // The graphs are made current first, so these vectors join them incrementally.
      for (const slot of bySlot.keys()) graphs.warm(slot);
      const stored: number[] = [];
      changeVectors(bySlot, () => {
        for (const entry of bySlot.values()) {
          entry.added = entry.added.filter((row) => s.chunkExists.get(row.id) !== undefined && v.has.get(BigInt(row.id)) === undefined);
          for (const row of entry.added) {
            v.insert.run(BigInt(row.id), BigInt(slotOf(row.id)), blob(row.vector));
            stored.push(row.id);
          }
        }
      });
      return stored;
    },
  };
}

/** sqlite-vec's exact kNN, reading every vector of the knowledge base. */
export const knnExact = (s: VectorStatements, vector: Float32Array, slot: number, k: number): Array<{ id: number; distance: number }> =>
  s.vec0().knn.all(blob(vector), k, BigInt(slot));

/**
 * The `k` nearest vectors of one knowledge base (`query` is `vector` as hnswlib takes it): from
 * its graph when one serves, else exactly. Vectors are made only for ready files' chunks, but a
 * file that left `ready` keeps its own until it is processed again: the chunks of files not ready
 * are never candidates.
 */
export function nearestIn(
  s: VectorStatements,
  graphs: VectorGraphs,
  unready: Pick<Unready, 'hasUnready' | 'unreadyRuns'>,
  vector: Float32Array,
  query: number[],
  slot: number,
  k: number,
): Array<{ id: number; distance: number }> {
  const { lo, hi } = slotRange(slot);
  const runs = unready.hasUnready(lo, hi) ? unready.unreadyRuns(lo, hi) : [];
  const searchable = runs.length > 0 ? (id: number) => !inRuns(runs, id) : undefined;
  const approximate = graphs.search(vector, slot, k, searchable, query);
  if (approximate) return approximate;
  if (!searchable) return knnExact(s, vector, slot, k);
  // sqlite-vec's kNN takes no such filter: ask for enough more (its k is at most 4,096) and leave them out.
  const unreadyCount = runs.reduce((n, r) => n + r.hi - r.lo + 1, 0);
  return knnExact(s, vector, slot, Math.min(4_096, k + unreadyCount))
    .filter((n) => searchable(n.id))
    .slice(0, k);
}
