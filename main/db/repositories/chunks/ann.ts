import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { runInBackground } from './background.js';
import { graphLabel as label, SLOT_SPAN } from './slots.js';

/**
 * Approximate nearest neighbours: one HNSW graph (hnswlib) per knowledge base, in memory, kept in
 * step with `chunk_vectors` and saved beside the database (`<db>.vectors/slot-<n>.hnsw` and its
 * `.json`). The vectors table stays the source of truth: a graph is trusted only when its saved
 * version equals the knowledge base's version in `chunk_vector_slots` (bumped in the transaction
 * of every vector change), and rebuilt from the table otherwise — missing file, older file after a
 * crash before saving, another model or dimension.
 *
 * A graph that is not in memory is never waited for: a search asks for it and is answered by
 * sqlite-vec's exact kNN meanwhile, while a saved graph is read on libuv's thread pool, or a stale
 * one rebuilt in a worker thread (background-worker.ts) that saves it the same crash-safe way.
 * Changes to the vectors meanwhile are kept and applied to the graph when it arrives (its file says
 * which version it holds), so it is current when it starts serving.
 *
 * Why HNSW: exact kNN in sqlite-vec reads every vector (42–56 ms p95 at 100k, 256-d, on this
 * machine); see the README's retrieval section for the alternatives measured.
 */

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

interface Change {
  from: number;
  to: number;
  added: ReadonlyArray<{ id: number; vector: Float32Array }>;
  removed: readonly number[];
}

/** A graph on its way: the vector changes committed meanwhile, to apply when it arrives. */
interface Pending {
  changes: Change[];
  done: Promise<void>;
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

export interface AnnOptions {
  /** The database file, for the worker's own connection (undefined: in memory, graphs are built in place). */
  dbFile?: string | undefined;
  /** A better-sqlite3 build for another ABI (Electron's), for the worker's connection. */
  nativeBinding?: string | undefined;
  /** Where the graph work goes: `background` (default with a file) or `inline` (tests of the old path, in-memory databases). */
  build?: 'background' | 'inline';
  /** Said when a background build fails (it is retried at the next search). */
  log?: (line: string) => void;
}

/**
 * The graphs of one database. `dir` undefined (an in-memory database) keeps them in memory only.
 */
export function createAnn(dir: string | undefined, source: AnnSource, params: AnnParams = DEFAULT_ANN, options: AnnOptions = {}) {
  const graphs = new Map<number, Graph>();
  const pending = new Map<number, Pending>();
  let space: { model: string; dimensions: number } | undefined;
  /** Bumped when the model changes: a graph started for an earlier one is dropped when it arrives. */
  let generation = 0;
  const stopping = new AbortController();
  let background = (options.build ?? 'background') === 'background' && dir !== undefined && options.dbFile !== undefined;
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

  const applyTo = (graph: Graph, change: Change) => {
    for (const id of change.removed) {
      try {
        graph.index.markDelete(label(id));
      } catch {
        // never added (a chunk without a vector)
      }
    }
    for (const { id, vector } of change.added) add(graph, id, vector);
    graph.version = change.to;
    graph.dirty = true;
  };

  /** The saved graph's meta when it describes the current vectors of this model, else undefined. */
  const currentFile = (slot: number, version: number): { graph: string; meta: Meta } | undefined => {
    const f = files(slot);
    if (!f || !space || !existsSync(f.graph)) return undefined;
    const meta = readMeta(f.meta);
    if (!meta || meta.version !== version || meta.model !== space.model || meta.dimensions !== space.dimensions) return undefined;
    return { graph: f.graph, meta };
  };

  /** The old way, on the calling thread: load the current file, else rebuild from the table and save. */
  const buildInline = (slot: number): Graph => {
    const version = source.version(slot);
    const saved = currentFile(slot, version);
    if (saved) {
      try {
        const index = fresh(0);
        index.readIndexSync(saved.graph);
        const graph = { index, version, dirty: false };
        graphs.set(slot, graph);
        return graph;
      } catch {
        // unreadable (torn write, another hnswlib): rebuilt below
      }
    }
    const graph: Graph = { index: fresh(source.count(slot)), version, dirty: true };
    for (const { id, vector } of source.vectors(slot)) add(graph, id, vector);
    graphs.set(slot, graph);
    save(slot);
    return graph;
  };

  /** Reads a saved graph on the thread pool; undefined when it cannot be read. */
  const readGraph = async (file: string): Promise<Hnsw | undefined> => {
    try {
      const index = fresh(0);
      return (await index.readIndex(file)) === false ? undefined : index;
    } catch {
      return undefined;
    }
  };

  /** Brings a graph of `version` up to the current version with the changes kept meanwhile, and serves it; false when a change is missing. */
  const install = (slot: number, index: Hnsw, version: number, changes: readonly Change[]): boolean => {
    const graph: Graph = { index, version, dirty: false };
    for (const change of changes) {
      if (change.to <= graph.version) continue;
      if (change.from !== graph.version) return false;
      applyTo(graph, change);
    }
    if (graph.version !== source.version(slot)) return false;
    graphs.set(slot, graph);
    return true;
  };

  /** Loads (or rebuilds, then loads) a knowledge base's graph without blocking; retried at the next search if it fails. */
  const startLoading = (slot: number): void => {
    if (pending.has(slot) || !space || stopping.signal.aborted) return;
    const changes: Change[] = [];
    const started = generation;
    const { model, dimensions } = space;
    const f = files(slot)!;
    const work = async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        let saved = currentFile(slot, source.version(slot));
        if (!saved) {
          const built = await runInBackground(
            { kind: 'graph', dbFile: options.dbFile!, nativeBinding: options.nativeBinding, slot, model, dimensions, params, graphFile: f.graph, metaFile: f.meta },
            stopping.signal,
          );
          if (generation !== started || stopping.signal.aborted) return;
          if (!built.ok || built.kind !== 'graph') {
            // A worker that cannot run here (an addon built for another runtime): graphs are built in place from now on, as before.
            background = false;
            options.log?.(`[retrieval] building the vector graph of knowledge base ${slot} in the background failed (${built.ok ? 'no graph' : built.reason}); it is built at the next search instead`);
            return;
          }
          const meta = readMeta(f.meta);
          if (!meta || meta.version !== built.version) continue;
          saved = { graph: f.graph, meta };
        }
        const index = await readGraph(saved.graph);
        if (generation !== started || stopping.signal.aborted) return;
        if (index && install(slot, index, saved.meta.version, changes)) return;
        // Unreadable, or changes made elsewhere meanwhile: build again from the table as it is now.
        rmSync(f.meta, { force: true });
      }
    };
    const done = work()
      .catch((error: unknown) => options.log?.(`[retrieval] loading the vector graph of knowledge base ${slot} failed (${error instanceof Error ? error.message : String(error)})`))
      .finally(() => {
        if (pending.get(slot)?.done === done) pending.delete(slot);
      });
    pending.set(slot, { changes, done });
  };

  /** The graph of a knowledge base when it is in memory and current; otherwise asks for it and says undefined (or builds it in place, inline mode). */
  const graphOf = (slot: number): Graph | undefined => {
    if (!space || !loadHnsw()) return undefined;
    const version = source.version(slot);
    const held = graphs.get(slot);
    if (held && held.version === version) return held;
    if (held) graphs.delete(slot);
    // A knowledge base without vectors yet: its (empty) graph costs nothing to make here.
    if (!background || source.count(slot) === 0) {
      if (background && pending.has(slot)) return undefined;
      return buildInline(slot);
    }
    startLoading(slot);
    return undefined;
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
      generation++;
      graphs.clear();
      pending.clear();
    },

    /** Forgets every graph and removes their files (the vectors table was dropped). */
    reset(): void {
      generation++;
      graphs.clear();
      pending.clear();
      space = undefined;
      if (dir) rmSync(dir, { recursive: true, force: true });
    },

    /**
     * Applies vector changes the caller just committed, which moved the knowledge base from
     * version `from` to `to`: incrementally when the graph held `from`, kept for a graph on its
     * way, else it is rebuilt when next needed.
     */
    apply(slot: number, from: number, to: number, added: ReadonlyArray<{ id: number; vector: Float32Array }>, removed: readonly number[]): void {
      const change = { from, to, added, removed };
      pending.get(slot)?.changes.push(change);
      const graph = graphs.get(slot);
      if (!graph) return;
      if (graph.version !== from) {
        graphs.delete(slot);
        return;
      }
      applyTo(graph, change);
    },

    /** The `k` nearest chunk ids of one knowledge base, or undefined when no graph serves (yet): exact search then. */
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

    /** Asks for the graph of a knowledge base now, rather than at its first search; true when it serves already. */
    warm(slot: number): boolean {
      return graphOf(slot) !== undefined;
    },

    /** Whether a knowledge base's graph serves searches now (else exact kNN does, while it loads). */
    serving(slot: number): boolean {
      const held = graphs.get(slot);
      return held !== undefined && held.version === source.version(slot);
    },

    /** Shutdown: stops the graphs on their way (a worker is terminated mid-build; its temp file is never trusted). */
    async stop(): Promise<void> {
      stopping.abort();
      await this.settled();
    },

    /** Resolves once no graph is on its way (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending.values()].map((p) => p.done));
    },
  };
}

export type Ann = ReturnType<typeof createAnn>;
