import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import { DEFAULT_ANN, efFor, type AnnParams } from './ann-params.js';
import { runInBackground } from './background.js';
import { ensureGraphDir, metaFile, newGraphFile, publishGraph, readGraphMeta, sweepGraphFiles, type GraphMeta } from './graph-files.js';
import { graphLabel as label, SLOT_SPAN } from './slots.js';
import { errorText } from '../../../../shared/errors.js';

/**
 * Approximate nearest neighbours: one HNSW graph (hnswlib) per knowledge base, in memory, kept in
 * step with `chunk_vectors` and saved beside the database (`<db>.vectors/`: a meta per knowledge
 * base naming its graph file, graph-files.ts). The vectors table stays the source of truth: a graph is trusted only when its saved
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
 * Saving never blocks the main thread: a graph is written on libuv's thread pool while searches
 * keep reading it, the changes committed meanwhile held beside it (writeGraph); one write per graph
 * at a time, with a pause between writes; at shutdown what is unsaved is written (bounded).
 *
 * Why HNSW: exact kNN in sqlite-vec reads every vector (42–56 ms p95 at 100k, 256-d, on this
 * machine); see docs/performance.md's retrieval section for the alternatives measured.
 */

export { DEFAULT_ANN, type AnnParams } from './ann-params.js';

interface Graph {
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

interface Held {
  changes: Change[];
  /** Vectors added meanwhile, by graph label: searched exactly (a batch or a few, never many). */
  added: Map<number, Float32Array>;
  /** Labels removed (or replaced) meanwhile: left out of the index's answers. */
  removed: Set<number>;
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
  /** How long shutdown waits for the graphs to be saved before it closes anyway (the next start rebuilds what was not saved). */
  shutdownSaveMs?: number | undefined;
  /** Least time between the end of a graph's write and the start of its next (also at least 4× the last write's duration). */
  saveGapMs?: number | undefined;
}

/** Default for `shutdownSaveMs`: a 1M × 1,536-d graph is ~6.5 GB to write. */
export const SHUTDOWN_SAVE_MS = 60_000;
/** Default for `saveGapMs`. */
export const SAVE_GAP_MS = 10_000;

/** Cosine distance, as hnswlib's cosine space (and sqlite-vec's) computes it. */
function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 1 : 1 - dot / Math.sqrt(na * nb);
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
  /** This owner's mark in the names of the graph files it writes (graph-files.ts). */
  const instance = randomBytes(4).toString('hex');
  let written = 0;

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

  /** Changes the index itself (never while it is being written). */
  const applyToIndex = (graph: Graph, change: Change) => {
    for (const id of change.removed) {
      try {
        graph.index.markDelete(label(id));
      } catch {
        // never added (a chunk without a vector)
      }
    }
    for (const { id, vector } of change.added) add(graph, id, vector);
  };

  const applyTo = (graph: Graph, change: Change) => {
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
  };

  /** The saved graph's meta when it describes the current vectors of this model, else undefined. */
  const currentFile = (slot: number, version: number): { graph: string; meta: GraphMeta } | undefined => {
    if (!dir || !space) return undefined;
    const meta = readGraphMeta(dir, slot);
    if (!meta || meta.version !== version || meta.model !== space.model || meta.dimensions !== space.dimensions || !existsSync(meta.file)) return undefined;
    return { graph: meta.file, meta };
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
    const count = source.count(slot);
    const graph: Graph = { index: fresh(count), version, dirty: count > 0 };
    for (const { id, vector } of source.vectors(slot)) add(graph, id, vector);
    graphs.set(slot, graph);
    // An empty graph is not worth a file: it is saved once vectors join it.
    if (graph.dirty) void requestSave(slot);
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
    const work = async () => {
      // A write of this slot's earlier graph still under way: its files are settled first (one writer of a slot's files at a time).
      await writes.get(slot);
      for (let attempt = 0; attempt < 2; attempt++) {
        let saved = currentFile(slot, source.version(slot));
        if (!saved) {
          const graphFile = newGraphFile(dir!, slot, instance, ++written);
          const built = await runInBackground(
            { kind: 'graph', dbFile: options.dbFile!, nativeBinding: options.nativeBinding, slot, model, dimensions, params, dir: dir!, graphFile },
            stopping.signal,
          );
          // The graph file a stopped or failed build left, or the one it replaced.
          sweepGraphFiles(dir!, instance, slot);
          if (generation !== started || stopping.signal.aborted) return;
          if (!built.ok || built.kind !== 'graph') {
            // A worker that cannot run here (an addon built for another runtime): graphs are built in place from now on, as before.
            background = false;
            options.log?.(`[retrieval] building the vector graph of knowledge base ${slot} in the background failed (${built.ok ? 'no graph' : built.reason}); it is built at the next search instead`);
            return;
          }
          const meta = readGraphMeta(dir!, slot);
          if (!meta || meta.version !== built.version) continue;
          saved = { graph: meta.file, meta };
        }
        const index = await readGraph(saved.graph);
        if (generation !== started || stopping.signal.aborted) return;
        if (index && install(slot, index, saved.meta.version, changes)) return;
        // Unreadable, or changes made elsewhere meanwhile: build again from the table as it is now.
        rmSync(metaFile(dir!, slot), { force: true });
      }
    };
    const done = work()
      .catch((error: unknown) => options.log?.(`[retrieval] loading the vector graph of knowledge base ${slot} failed (${errorText(error)})`))
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

  /**
   * Writes a graph on libuv's thread pool (hnswlib's async `writeIndex`) to a file of its own,
   * flushes it, then names it in the meta (a temp file and a rename): a meta only ever names a
   * complete graph, so a crash or kill anywhere leaves the previous pair (trusted only while
   * current) or the new one (graph-files.ts). Searches go on meanwhile: the index is only read, and
   * the changes committed meanwhile are held beside it.
   */
  const writeGraph = async (slot: number): Promise<void> => {
    const graph = graphs.get(slot);
    if (!graph || !graph.dirty || !space || !dir || graph.held) return;
    const started = generation;
    const meta: GraphMeta = { version: graph.version, model: space.model, dimensions: space.dimensions, params };
    const file = newGraphFile(dir, slot, instance, ++written);
    const held: Held = { changes: [], added: new Map(), removed: new Set() };
    graph.held = held;
    graph.dirty = false;
    let published = false;
    try {
      // Synchronous up to the thread pool's write (one cheap mkdir): the write begins at this call.
      ensureGraphDir(dir);
      if ((await graph.index.writeIndex(file)) === false) throw new Error('hnswlib could not write the graph');
      // A model change meanwhile: this graph describes vectors that are gone.
      if (generation !== started) return;
      await publishGraph(dir, slot, file, meta);
      published = true;
    } catch (error) {
      graph.dirty = true;
      throw error;
    } finally {
      graph.held = undefined;
      for (const change of held.changes) applyToIndex(graph, change);
      if (held.changes.length > 0) graph.dirty = true;
      if (!published) await rm(file, { force: true }).catch(() => undefined);
      // The graph file the meta named before (this owner's): replaced now.
      else sweepGraphFiles(dir, instance, slot);
    }
  };

  /** The save of each graph waiting or running; at most one runs and one waits per graph. */
  const saving = new Map<number, Promise<void>>();
  const waiting = new Set<number>();
  /** The write under way of each graph (a save past its pause). */
  const writes = new Map<number, Promise<void>>();
  /** When each graph's last write ended, and how long it took (ms). */
  const lastWrite = new Map<number, { ended: number; took: number }>();
  /** Saves waiting out their pause, to start at once at shutdown. */
  const pauses = new Set<() => void>();
  let flushing = false;

  /**
   * The pause before a graph's next write: at least `saveGapMs` after the last one ended, and four
   * times as long as it took, so that while files keep coming writes take at most a fifth of the
   * time (a 1M × 1,536-d graph is gigabytes) and everything requested meanwhile is in one write.
   */
  const pauseMs = (slot: number): number => {
    const last = lastWrite.get(slot);
    return last && !flushing ? last.ended + Math.max(options.saveGapMs ?? SAVE_GAP_MS, 4 * last.took) - Date.now() : 0;
  };
  const pause = (slot: number): Promise<void> => {
    const wait = pauseMs(slot);
    if (wait <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        pauses.delete(go);
        resolve();
      };
      const timer = setTimeout(go, wait);
      // Never what keeps the process alive: shutdown starts what waits.
      timer.unref?.();
      pauses.add(go);
    });
  };

  /**
   * Saves a graph soon, off the main thread. Requests made while one waits join it (batches that
   * come quickly cost one write, not one each); one made while one runs waits for it, then for the
   * pause. Never rejects: a failed save is said, and the graph stays dirty for the next one.
   */
  const requestSave = (slot: number): Promise<void> => {
    const current = saving.get(slot);
    if (current && waiting.has(slot)) return current;
    const write = async () => {
      const began = Date.now();
      const writing = writeGraph(slot);
      writes.set(slot, writing.catch(() => undefined));
      try {
        await writing;
      } catch (error) {
        options.log?.(`[retrieval] saving the vector graph of knowledge base ${slot} failed (${errorText(error)}); it is saved again later`);
      } finally {
        writes.delete(slot);
        lastWrite.set(slot, { ended: Date.now(), took: Date.now() - began });
      }
    };
    let next: Promise<void>;
    if (!current && pauseMs(slot) <= 0) {
      // Begun now: the file holds the graph as it is at this call.
      next = write();
    } else {
      waiting.add(slot);
      next = (current ?? Promise.resolve())
        .then(() => pause(slot))
        .then(() => {
          waiting.delete(slot);
          return write();
        });
    }
    const tracked: Promise<void> = next.finally(() => {
      if (saving.get(slot) === tracked) saving.delete(slot);
    });
    saving.set(slot, tracked);
    return tracked;
  };

  // Files of writes a crash or a kill cut short (never named by a meta, so never trusted): removed at start.
  if (dir) sweepGraphFiles(dir, instance);

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

    /** The `k` nearest chunk ids of one knowledge base, or undefined when no graph serves (yet): exact search then. `query` is `vector` as hnswlib takes it (an array). */
    search(
      vector: Float32Array,
      slot: number,
      k: number,
      searchable?: (chunkId: number) => boolean,
      query: number[] = Array.from(vector),
    ): Array<{ id: number; distance: number }> | undefined {
      const graph = graphOf(slot);
      if (!graph) return undefined;
      const { index, held } = graph;
      const base = slot * SLOT_SPAN;
      const live = index.getCurrentCount();
      let found: Array<{ id: number; distance: number }> = [];
      if (live > 0) {
        index.setEf(efFor(params, space?.dimensions ?? 0, live, k));
        // hnswlib applies the filter while it walks the graph, so k searchable neighbours still come back.
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
    },

    /** Saves every graph changed since it was last saved, off the main thread (after a batch of embedding, at shutdown); resolves when written. */
    saveAll(): Promise<void> {
      return Promise.all([...graphs.keys()].map((slot) => requestSave(slot))).then(() => undefined);
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

    /**
     * Shutdown: stops the graphs on their way (a worker is terminated mid-build; its file is never
     * named by a meta, so never trusted), then saves the graphs changed since their last save, so
     * the next start loads them instead of rebuilding — for at most `shutdownSaveMs`; a write cut
     * short by the exit is an unnamed file too, removed at the next start, which rebuilds that graph.
     */
    async stop(): Promise<void> {
      stopping.abort();
      while (pending.size > 0) await Promise.all([...pending.values()].map((p) => p.done));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const budget = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.shutdownSaveMs ?? SHUTDOWN_SAVE_MS);
      });
      try {
        // No more pauses: a save running now is waited for, the one queued behind it (what was held meanwhile) follows at once.
        flushing = true;
        for (const go of [...pauses]) go();
        await Promise.race([this.saveAll(), budget]);
      } finally {
        clearTimeout(timer);
      }
    },

    /** Resolves once no graph is on its way nor being saved (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0 || saving.size > 0) await Promise.all([...[...pending.values()].map((p) => p.done), ...saving.values()]);
    },
  };
}

export type Ann = ReturnType<typeof createAnn>;
