import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { VectorGraphs, VectorGraphSource } from '../../db/repositories/chunks/index-port.js';
import { DEFAULT_ANN, type AnnParams } from './ann-params.js';
import type { AnnOptions, AnnState } from './ann-state.js';
import { applyTo, searchGraph } from './graph-changes.js';
import { sweepGraphFiles } from './graph-files.js';
import { graphOf } from './graph-loader.js';
import { createGraphSaver } from './graph-saver.js';
import { hnswModule } from './hnsw.js';

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
 * one rebuilt in a worker thread (background-worker.ts) that saves it the same crash-safe way
 * (graph-loader.ts). Changes to the vectors meanwhile are kept and applied to the graph when it
 * arrives (its file says which version it holds), so it is current when it starts serving.
 *
 * Saving never blocks the main thread: a graph is written on libuv's thread pool while searches
 * keep reading it, the changes committed meanwhile held beside it (graph-changes.ts); one write per
 * graph at a time, with a pause between writes; at shutdown what is unsaved is written, bounded (graph-saver.ts).
 *
 * Why HNSW: exact kNN in sqlite-vec reads every vector (42–56 ms p95 at 100k, 256-d, on this
 * machine); see docs/performance.md's retrieval section for the alternatives measured.
 */

export { DEFAULT_ANN, type AnnParams } from './ann-params.js';
export type { AnnOptions } from './ann-state.js';
export { SAVE_GAP_MS } from './graph-saver.js';

/** Default for `shutdownSaveMs`: a 1M × 1,536-d graph is ~6.5 GB to write. */
export const SHUTDOWN_SAVE_MS = 60_000;

/** The graphs of one database. `dir` undefined (an in-memory database) keeps them in memory only. */
export function createAnn(dir: string | undefined, source: VectorGraphSource, params: AnnParams = DEFAULT_ANN, options: AnnOptions = {}) {
  const state: AnnState = {
    dir,
    source,
    params,
    options,
    graphs: new Map(),
    pending: new Map(),
    writes: new Map(),
    space: undefined,
    generation: 0,
    stopping: new AbortController(),
    background: (options.build ?? 'background') === 'background' && dir !== undefined && options.dbFile !== undefined,
    instance: randomBytes(4).toString('hex'),
    written: 0,
  };
  const saver = createGraphSaver(state);
  const { graphs, pending } = state;

  // Files of writes a crash or a kill cut short (never named by a meta, so never trusted): removed at start.
  if (dir) sweepGraphFiles(dir, state.instance);

  const ann = {
    /** Whether graphs can be built here (hnswlib-node loads). */
    available: (): boolean => hnswModule() !== null,

    /** The model and dimension of the vectors; a change forgets every graph (their files too). */
    use(model: string, dimensions: number): void {
      if (state.space && state.space.model === model && state.space.dimensions === dimensions) return;
      state.space = { model, dimensions };
      state.generation++;
      graphs.clear();
      pending.clear();
    },

    /** Forgets every graph and removes their files (the vectors table was dropped). */
    reset(): void {
      state.generation++;
      graphs.clear();
      pending.clear();
      state.space = undefined;
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
      const graph = graphOf(state, saver, slot);
      return graph ? searchGraph(graph, params, state.space?.dimensions ?? 0, slot, vector, query, k, searchable) : undefined;
    },

    /** Saves every graph changed since it was last saved, off the main thread (after a batch of embedding, at shutdown); resolves when written. */
    saveAll: (): Promise<void> => saver.saveAll(),

    /** Asks for the graph of a knowledge base now, rather than at its first search; true when it serves already. */
    warm: (slot: number): boolean => graphOf(state, saver, slot) !== undefined,

    /** Whether a knowledge base's graph serves searches now (else exact kNN does, while it loads). */
    serving(slot: number): boolean {
      const graph = graphs.get(slot);
      return graph !== undefined && graph.version === source.version(slot);
    },

    /**
     * Shutdown: stops the graphs on their way (a worker is terminated mid-build; its file is never
     * named by a meta, so never trusted), then saves the graphs changed since their last save, so
     * the next start loads them instead of rebuilding — for at most `shutdownSaveMs`; a write cut
     * short by the exit is an unnamed file too, removed at the next start, which rebuilds that graph.
     */
    async stop(): Promise<void> {
      state.stopping.abort();
      while (pending.size > 0) await Promise.all([...pending.values()].map((p) => p.done));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const budget = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, options.shutdownSaveMs ?? SHUTDOWN_SAVE_MS);
      });
      try {
        saver.flush();
        await Promise.race([saver.saveAll(), budget]);
      } finally {
        clearTimeout(timer);
      }
    },

    /** Resolves once no graph is on its way nor being saved (tests, shutdown). */
    async settled(): Promise<void> {
      while (pending.size > 0 || saver.inFlight().length > 0) await Promise.all([...[...pending.values()].map((p) => p.done), ...saver.inFlight()]);
    },
  } satisfies VectorGraphs;
  return ann;
}

export type Ann = ReturnType<typeof createAnn>;
