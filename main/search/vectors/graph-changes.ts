import { graphLabel as label, SLOT_SPAN } from '../../db/repositories/chunks/slots.js';
import { efFor, type AnnParams } from './ann-params.js';
import { addToIndex, cosineDistance, type Hnsw } from './hnsw.js';

/** A knowledge base's graph in memory. */
export interface Graph {
  index: Hnsw;
  /** The knowledge base's vector version this graph reflects (the index with `held` on top). */
  version: number;
  /** Changed since it was saved. */
  dirty: boolean;
  /**
   * While the index is written on the thread pool it must not change under the writer (hnswlib's
   * save reads its memory without a lock; an insert may even reallocate it): the changes committed
   * meanwhile are held here, searched beside the index, and applied to it once the write is done.
   */
  held?: Held | undefined;
}

export interface Held {
  changes: Change[];
  /** Vectors added meanwhile, by graph label: searched exactly (a batch or a few, never many). */
  added: Map<number, Float32Array>;
  /** Labels removed (or replaced) meanwhile: left out of the index's answers. */
  removed: Set<number>;
}

/** Vector changes committed together, moving a knowledge base from version `from` to `to`. */
export interface Change {
  from: number;
  to: number;
  added: ReadonlyArray<{ id: number; vector: Float32Array }>;
  removed: readonly number[];
}

export const emptyHeld = (): Held => ({ changes: [], added: new Map(), removed: new Set() });

/** Changes the index itself (never while it is being written). */
export function applyToIndex(graph: Graph, change: Change): void {
  for (const id of change.removed) {
    try {
      graph.index.markDelete(label(id));
    } catch {
      // never added (a chunk without a vector)
    }
  }
  for (const { id, vector } of change.added) addToIndex(graph.index, label(id), vector);
}

/** Applies a change to a graph: to its index, or beside it while the index is being written. */
export function applyTo(graph: Graph, change: Change): void {
  const { held } = graph;
  if (held) {
    held.changes.push(change);
    for (const id of change.removed) {
      held.added.delete(label(id));
      held.removed.add(label(id));
    }
    for (const { id, vector } of change.added) {
      // A label the index holds too is answered from here only (the newer vector).
      held.removed.add(label(id));
      held.added.set(label(id), vector);
    }
  } else {
    applyToIndex(graph, change);
  }
  graph.version = change.to;
  graph.dirty = true;
}

/** Applies the changes held during a write to the index, once the write is done. */
export function releaseHeld(graph: Graph, held: Held): void {
  graph.held = undefined;
  for (const change of held.changes) applyToIndex(graph, change);
  if (held.changes.length > 0) graph.dirty = true;
}

/**
 * The `k` nearest chunk ids of the graph of knowledge base `slot`: the index's answer (filtered
 * while hnswlib walks the graph, so k searchable neighbours still come back) merged with the
 * vectors held beside it during a write, compared exactly. `query` is `vector` as hnswlib takes it.
 */
export function searchGraph(
  graph: Graph,
  params: AnnParams,
  dimensions: number,
  slot: number,
  vector: Float32Array,
  query: number[],
  k: number,
  searchable?: (chunkId: number) => boolean,
): Array<{ id: number; distance: number }> {
  const { index, held } = graph;
  const base = slot * SLOT_SPAN;
  const live = index.getCurrentCount();
  let found: Array<{ id: number; distance: number }> = [];
  if (live > 0) {
    index.setEf(efFor(params, dimensions, live, k));
    const keep =
      held && held.removed.size > 0
        ? (n: number) => !held.removed.has(n) && (!searchable || searchable(base + n))
        : searchable
          ? (n: number) => searchable(base + n)
          : undefined;
    const hits = keep ? index.searchKnn(query, Math.min(k, live), keep) : index.searchKnn(query, Math.min(k, live));
    found = hits.neighbors.map((n, i) => ({ id: base + n, distance: hits.distances[i] ?? 0 }));
  }
  if (!held || held.added.size === 0) return found;
  // The vectors stored while the index is being written: few, compared exactly.
  for (const [n, v] of held.added) if (!searchable || searchable(base + n)) found.push({ id: base + n, distance: cosineDistance(vector, v) });
  return found.sort((a, b) => a.distance - b.distance).slice(0, k);
}
