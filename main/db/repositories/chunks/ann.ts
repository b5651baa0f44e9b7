import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { slotOf, SLOT_SPAN } from './slots.js';

/**
 * Approximate nearest neighbours: one HNSW graph (hnswlib) per knowledge base, in memory, kept in
 * step with `chunk_vectors` and saved beside the database (`<db>.vectors/slot-<n>.hnsw` and its
 * `.json`). The vectors table stays the source of truth: a graph is trusted only when its saved
 * version equals the knowledge base's version in `chunk_vector_slots` (bumped in the transaction
 * of every vector change), and rebuilt from the table otherwise — missing file, older file after a
 * crash before saving, another model or dimension.
 *
 * Why HNSW: exact kNN in sqlite-vec reads every vector (42–56 ms p95 at 100k, 256-d, on this
 * machine); see the README's retrieval section for the alternatives measured.
 */

/** Labels in a graph are the low 32 bits of chunk ids (hnswlib labels are 32-bit here); the slot is the graph. */
const label = (chunkId: number) => chunkId - slotOf(chunkId) * SLOT_SPAN;

export interface AnnParams {
  /** Graph degree. Default 16. */
  m: number;
  /** Candidate list while inserting. Default 100. */
  efConstruction: number;
  /** Candidate list while searching (at least k). Default 96. */
  efSearch: number;
}

export const DEFAULT_ANN: AnnParams = { m: 16, efConstruction: 100, efSearch: 96 };

interface Meta {
  version: number;
  model: string;
  dimensions: number;
  params: AnnParams;
}

interface Graph {
  index: Hnsw;
  /** The knowledge base's vector version this graph reflects. */
  version: number;
  /** Changed since it was saved. */
  dirty: boolean;
}

type HnswModule = { HierarchicalNSW: new (space: 'cosine', dimensions: number) => Hnsw };
let hnswModule: HnswModule | null | undefined;

/** hnswlib-node is a native addon built at install; where it failed to build, vectors are searched exactly. */
function loadHnsw(): HnswModule | null {
  if (hnswModule === undefined) {
    try {
      hnswModule = createRequire(import.meta.url)('hnswlib-node') as HnswModule;
    } catch {
      hnswModule = null;
    }
  }
  return hnswModule;
}

export interface AnnSource {
  /** The knowledge base's current vector version. */
  version(slot: number): number;
  /** Every vector of the knowledge base, for a rebuild. */
  vectors(slot: number): Iterable<{ id: number; vector: Float32Array }>;
  count(slot: number): number;
}

/**
 * The graphs of one database. `dir` undefined (an in-memory database) keeps them in memory only.
 */
export function createAnn(dir: string | undefined, source: AnnSource, params: AnnParams = DEFAULT_ANN) {
  const graphs = new Map<number, Graph>();
  let space: { model: string; dimensions: number } | undefined;
  const files = (slot: number) => (dir ? { graph: join(dir, `slot-${slot}.hnsw`), meta: join(dir, `slot-${slot}.json`) } : undefined);

  const readMeta = (file: string): Meta | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Meta;
    } catch {
      return undefined;
    }
  };

  const fresh = (capacity: number): Hnsw => {
    const hnsw = loadHnsw();
    if (!hnsw || !space) throw new Error('No vector index');
    const index = new hnsw.HierarchicalNSW('cosine', space.dimensions);
    index.initIndex({ maxElements: Math.max(1_024, Math.ceil(capacity * 1.25)), m: params.m, efConstruction: params.efConstruction, randomSeed: 100 });
    return index;
  };

  const add = (graph: Graph, id: number, vector: Float32Array) => {
    const { index } = graph;
    if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
    index.addPoint(Array.from(vector), label(id));
  };

  /** The graph of a knowledge base, loaded from its file when that is current, else rebuilt from the table. */
  const graphOf = (slot: number): Graph | undefined => {
    if (!space || !loadHnsw()) return undefined;
    const version = source.version(slot);
    const held = graphs.get(slot);
    if (held && held.version === version) return held;
    const f = files(slot);
    if (!held && f && existsSync(f.graph)) {
      const meta = readMeta(f.meta);
      if (meta && meta.version === version && meta.model === space.model && meta.dimensions === space.dimensions) {
        try {
          const index = fresh(0);
          index.readIndexSync(f.graph);
          const graph = { index, version, dirty: false };
          graphs.set(slot, graph);
          return graph;
        } catch {
          // unreadable (torn write, another hnswlib): rebuilt below
        }
      }
    }
    const graph: Graph = { index: fresh(source.count(slot)), version, dirty: true };
    for (const { id, vector } of source.vectors(slot)) add(graph, id, vector);
    graphs.set(slot, graph);
    save(slot);
    return graph;
  };

  /** Writes a graph and then its meta, each through a temp file and a rename: a torn write is never trusted. */
  const save = (slot: number) => {
    const graph = graphs.get(slot);
    const f = files(slot);
    if (!graph || !graph.dirty || !f || !space || !dir) return;
    mkdirSync(dir, { recursive: true });
    rmSync(f.meta, { force: true });
    graph.index.writeIndexSync(`${f.graph}.tmp`);
    renameSync(`${f.graph}.tmp`, f.graph);
    const meta: Meta = { version: graph.version, model: space.model, dimensions: space.dimensions, params };
    writeFileSync(`${f.meta}.tmp`, JSON.stringify(meta));
    renameSync(`${f.meta}.tmp`, f.meta);
    graph.dirty = false;
  };

  return {
    /** Whether graphs can be built here (hnswlib-node loads). */
    available: (): boolean => loadHnsw() !== null,

    /** The model and dimension of the vectors; a change forgets every graph (their files too). */
    use(model: string, dimensions: number): void {
      if (space && space.model === model && space.dimensions === dimensions) return;
      space = { model, dimensions };
      graphs.clear();
    },

    /** Forgets every graph and removes their files (the vectors table was dropped). */
    reset(): void {
      graphs.clear();
      space = undefined;
      if (dir) rmSync(dir, { recursive: true, force: true });
    },

    /**
     * Applies vector changes the caller just committed, which moved the knowledge base from
     * version `from` to `to`: incrementally when the graph held `from`, else it is rebuilt when next needed.
     */
    apply(slot: number, from: number, to: number, added: ReadonlyArray<{ id: number; vector: Float32Array }>, removed: readonly number[]): void {
      const graph = graphs.get(slot);
      if (!graph) return;
      if (graph.version !== from) {
        graphs.delete(slot);
        return;
      }
      for (const id of removed) {
        try {
          graph.index.markDelete(label(id));
        } catch {
          // never added (a chunk without a vector)
        }
      }
      for (const { id, vector } of added) add(graph, id, vector);
      graph.version = to;
      graph.dirty = true;
    },

    /** The `k` nearest chunk ids of one knowledge base, or undefined when no graph can serve. */
    search(vector: Float32Array, slot: number, k: number, searchable?: (chunkId: number) => boolean): Array<{ id: number; distance: number }> | undefined {
      const graph = graphOf(slot);
      if (!graph) return undefined;
      const { index } = graph;
      const live = index.getCurrentCount();
      if (live === 0) return [];
      index.setEf(Math.max(k, params.efSearch));
      const base = slot * SLOT_SPAN;
      // hnswlib applies the filter while it walks the graph, so k searchable neighbours still come back.
      const found = searchable ? index.searchKnn(Array.from(vector), Math.min(k, live), (n) => searchable(base + n)) : index.searchKnn(Array.from(vector), Math.min(k, live));
      return found.neighbors.map((n, i) => ({ id: base + n, distance: found.distances[i] ?? 0 }));
    },

    /** Saves every graph changed since it was last saved (after a batch of embedding, at shutdown). */
    saveAll(): void {
      for (const slot of graphs.keys()) save(slot);
    },

    /** Builds (or loads) the graph of a knowledge base now, rather than at its first search. */
    warm(slot: number): boolean {
      return graphOf(slot) !== undefined;
    },
  };
}

export type Ann = ReturnType<typeof createAnn>;
