import { existsSync, rmSync } from 'node:fs';
import { errorText } from '../../../shared/errors.js';
import type { AnnState } from './ann-state.js';
import { runInBackground } from './background.js';
import { applyTo, type Change, type Graph } from './graph-changes.js';
import { metaFile, newGraphFile, readGraphMeta, sweepGraphFiles, type GraphMeta } from './graph-files.js';
import type { GraphSaver } from './graph-saver.js';
import { addToIndex, hnswModule, newIndex, type Hnsw } from './hnsw.js';
import { graphLabel as label } from '../../db/repositories/chunks/slots.js';

/** An empty index for the current vectors' dimension, sized for `capacity`. */
function fresh(state: AnnState, capacity: number): Hnsw {
  const hnsw = hnswModule();
  if (!hnsw || !state.space) throw new Error('No vector index');
  return newIndex(hnsw, state.space.dimensions, capacity, state.params);
}

/** The saved graph's meta when it describes the current vectors of this model, else undefined. */
function currentFile(state: AnnState, slot: number, version: number): { graph: string; meta: GraphMeta } | undefined {
  const { dir, space } = state;
  if (!dir || !space) return undefined;
  const meta = readGraphMeta(dir, slot);
  if (!meta || meta.version !== version || meta.model !== space.model || meta.dimensions !== space.dimensions || !existsSync(meta.file)) return undefined;
  return { graph: meta.file, meta };
}

/** The old way, on the calling thread: load the current file, else rebuild from the table and save. */
function buildInline(state: AnnState, saver: GraphSaver, slot: number): Graph {
  const { source, graphs } = state;
  const version = source.version(slot);
  const saved = currentFile(state, slot, version);
  if (saved) {
    try {
      const index = fresh(state, 0);
      index.readIndexSync(saved.graph);
      const graph = { index, version, dirty: false };
      graphs.set(slot, graph);
      return graph;
    } catch {
      // unreadable (torn write, another hnswlib): rebuilt below
    }
  }
  const count = source.count(slot);
  const graph: Graph = { index: fresh(state, count), version, dirty: count > 0 };
  for (const { id, vector } of source.vectors(slot)) addToIndex(graph.index, label(id), vector);
  graphs.set(slot, graph);
  // An empty graph is not worth a file: it is saved once vectors join it.
  if (graph.dirty) void saver.requestSave(slot);
  return graph;
}

/** Reads a saved graph on the thread pool; undefined when it cannot be read. */
async function readGraph(state: AnnState, file: string): Promise<Hnsw | undefined> {
  try {
    const index = fresh(state, 0);
    return (await index.readIndex(file)) === false ? undefined : index;
  } catch {
    return undefined;
  }
}

/** Brings a graph of `version` up to the current version with the changes kept meanwhile, and serves it; false when a change is missing. */
function install(state: AnnState, slot: number, index: Hnsw, version: number, changes: readonly Change[]): boolean {
  const graph: Graph = { index, version, dirty: false };
  for (const change of changes) {
    if (change.to <= graph.version) continue;
    if (change.from !== graph.version) return false;
    applyTo(graph, change);
  }
  if (graph.version !== state.source.version(slot)) return false;
  state.graphs.set(slot, graph);
  return true;
}

/**
 * Builds a knowledge base's graph in a worker thread, which saves it; the saved file's meta, or
 * undefined when there is nothing to load (stopped, superseded, or the worker cannot run here:
 * graphs are then built in place from now on, as before). `retry` when another build got there first.
 */
async function buildInBackground(
  state: AnnState,
  slot: number,
  started: { generation: number; model: string; dimensions: number },
): Promise<{ graph: string; meta: GraphMeta } | 'retry' | undefined> {
  const { dir, options, stopping } = state;
  const { model, dimensions } = started;
  const graphFile = newGraphFile(dir!, slot, state.instance, ++state.written);
  const built = await runInBackground(
    { kind: 'graph', dbFile: options.dbFile!, nativeBinding: options.nativeBinding, slot, model, dimensions, params: state.params, dir: dir!, graphFile },
    stopping.signal,
  );
  // The graph file a stopped or failed build left, or the one it replaced.
  sweepGraphFiles(dir!, state.instance, slot);
  if (state.generation !== started.generation || stopping.signal.aborted) return undefined;
  if (!built.ok || built.kind !== 'graph') {
    state.background = false;
    options.log?.(`[retrieval] building the vector graph of knowledge base ${slot} in the background failed (${built.ok ? 'no graph' : built.reason}); it is built at the next search instead`);
    return undefined;
  }
  const meta = readGraphMeta(dir!, slot);
  if (!meta || meta.version !== built.version) return 'retry';
  return { graph: meta.file, meta };
}

/** Loads (or rebuilds, then loads) a knowledge base's graph without blocking; retried at the next search if it fails. */
function startLoading(state: AnnState, slot: number): void {
  const { pending, space, stopping } = state;
  if (pending.has(slot) || !space || stopping.signal.aborted) return;
  const changes: Change[] = [];
  const started = state.generation;
  const { model, dimensions } = space;
  const work = async () => {
    // A write of this slot's earlier graph still under way: its files are settled first (one writer of a slot's files at a time).
    await state.writes.get(slot);
    for (let attempt = 0; attempt < 2; attempt++) {
      let saved = currentFile(state, slot, state.source.version(slot));
      if (!saved) {
        const built = await buildInBackground(state, slot, { generation: started, model, dimensions });
        if (built === undefined) return;
        if (built === 'retry') continue;
        saved = built;
      }
      const index = await readGraph(state, saved.graph);
      if (state.generation !== started || stopping.signal.aborted) return;
      if (index && install(state, slot, index, saved.meta.version, changes)) return;
      // Unreadable, or changes made elsewhere meanwhile: build again from the table as it is now.
      rmSync(metaFile(state.dir!, slot), { force: true });
    }
  };
  const done = work()
    .catch((error: unknown) => state.options.log?.(`[retrieval] loading the vector graph of knowledge base ${slot} failed (${errorText(error)})`))
    .finally(() => {
      if (pending.get(slot)?.done === done) pending.delete(slot);
    });
  pending.set(slot, { changes, done });
}

/** The graph of a knowledge base when it is in memory and current; otherwise asks for it and says undefined (or builds it in place, inline mode). */
export function graphOf(state: AnnState, saver: GraphSaver, slot: number): Graph | undefined {
  const { graphs, source, background, pending } = state;
  if (!state.space || !hnswModule()) return undefined;
  const version = source.version(slot);
  const held = graphs.get(slot);
  if (held && held.version === version) return held;
  if (held) graphs.delete(slot);
  // A knowledge base without vectors yet: its (empty) graph costs nothing to make here.
  if (!background || source.count(slot) === 0) {
    if (background && pending.has(slot)) return undefined;
    return buildInline(state, saver, slot);
  }
  startLoading(state, slot);
  return undefined;
}
