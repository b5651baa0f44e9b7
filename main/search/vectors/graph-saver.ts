import { rm } from 'node:fs/promises';
import { errorText } from '../../../shared/errors.js';
import type { AnnState } from './ann-state.js';
import { emptyHeld, releaseHeld } from './graph-changes.js';
import { ensureGraphDir, newGraphFile, publishGraph, sweepGraphFiles, type GraphMeta } from './graph-files.js';

/** Default for `saveGapMs`. */
export const SAVE_GAP_MS = 10_000;

/**
 * Writes a graph on libuv's thread pool (hnswlib's async `writeIndex`) to a file of its own,
 * flushes it, then names it in the meta (a temp file and a rename): a meta only ever names a
 * complete graph, so a crash or kill anywhere leaves the previous pair (trusted only while
 * current) or the new one (graph-files.ts). Searches go on meanwhile: the index is only read, and
 * the changes committed meanwhile are held beside it.
 */
async function writeGraph(state: AnnState, slot: number): Promise<void> {
  const { dir, space } = state;
  const graph = state.graphs.get(slot);
  if (!graph || !graph.dirty || !space || !dir || graph.held) return;
  const started = state.generation;
  const meta: GraphMeta = { version: graph.version, model: space.model, dimensions: space.dimensions, params: state.params };
  const file = newGraphFile(dir, slot, state.instance, ++state.written);
  const held = emptyHeld();
  graph.held = held;
  graph.dirty = false;
  let published = false;
  try {
    // Synchronous up to the thread pool's write (one cheap mkdir): the write begins at this call.
    ensureGraphDir(dir);
    if ((await graph.index.writeIndex(file)) === false) throw new Error('hnswlib could not write the graph');
    // A model change meanwhile: this graph describes vectors that are gone.
    if (state.generation !== started) return;
    await publishGraph(dir, slot, file, meta);
    published = true;
  } catch (error) {
    graph.dirty = true;
    throw error;
  } finally {
    releaseHeld(graph, held);
    if (!published) await rm(file, { force: true }).catch(() => undefined);
    // The graph file the meta named before (this owner's): replaced now.
    else sweepGraphFiles(dir, state.instance, slot);
  }
}

/**
 * When graphs are saved: one write per graph at a time, requests made meanwhile joined into the
 * next, with a pause between writes; `flush` (shutdown) drops the pauses.
 */
export function createGraphSaver(state: AnnState) {
  /** The save of each graph waiting or running; at most one runs and one waits per graph. */
  const saving = new Map<number, Promise<void>>();
  const waiting = new Set<number>();
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
    return last && !flushing ? last.ended + Math.max(state.options.saveGapMs ?? SAVE_GAP_MS, 4 * last.took) - Date.now() : 0;
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

  /** One write of a graph, said in the log when it fails; its end and duration set the next pause. */
  const write = async (slot: number) => {
    const began = Date.now();
    const writing = writeGraph(state, slot);
    state.writes.set(slot, writing.catch(() => undefined));
    try {
      await writing;
    } catch (error) {
      state.options.log?.(`[retrieval] saving the vector graph of knowledge base ${slot} failed (${errorText(error)}); it is saved again later`);
    } finally {
      state.writes.delete(slot);
      lastWrite.set(slot, { ended: Date.now(), took: Date.now() - began });
    }
  };

  /**
   * Saves a graph soon, off the main thread. Requests made while one waits join it (batches that
   * come quickly cost one write, not one each); one made while one runs waits for it, then for the
   * pause. Never rejects: a failed save is said, and the graph stays dirty for the next one.
   */
  const requestSave = (slot: number): Promise<void> => {
    const current = saving.get(slot);
    if (current && waiting.has(slot)) return current;
    let next: Promise<void>;
    if (!current && pauseMs(slot) <= 0) {
      // Begun now: the file holds the graph as it is at this call.
      next = write(slot);
    } else {
      waiting.add(slot);
      next = (current ?? Promise.resolve())
        .then(() => pause(slot))
        .then(() => {
          waiting.delete(slot);
          return write(slot);
        });
    }
    const tracked: Promise<void> = next.finally(() => {
      if (saving.get(slot) === tracked) saving.delete(slot);
    });
    saving.set(slot, tracked);
    return tracked;
  };

  return {
    requestSave,
    /** Saves every graph changed since it was last saved; resolves when written. */
    saveAll: (): Promise<void> => Promise.all([...state.graphs.keys()].map((slot) => requestSave(slot))).then(() => undefined),
    /** No more pauses: a save running now is waited for, the one queued behind it follows at once. */
    flush(): void {
      flushing = true;
      for (const go of [...pauses]) go();
    },
    /** The saves waiting or running. */
    inFlight: (): Promise<void>[] => [...saving.values()],
  };
}

export type GraphSaver = ReturnType<typeof createGraphSaver>;
