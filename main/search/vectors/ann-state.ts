import type { VectorGraphSource } from '../../db/repositories/chunks/index-port.js';
import type { AnnParams } from './ann-params.js';
import type { Change, Graph } from './graph-changes.js';

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

/** A graph on its way: the vector changes committed meanwhile, to apply when it arrives. */
export interface Pending {
  changes: Change[];
  done: Promise<void>;
}

/** What the graphs of one database share: ann.ts makes it, the loader and the saver work on it. */
export interface AnnState {
  /** `<db>.vectors/`; undefined (an in-memory database) keeps the graphs in memory only. */
  readonly dir: string | undefined;
  readonly source: VectorGraphSource;
  readonly params: AnnParams;
  readonly options: AnnOptions;
  readonly graphs: Map<number, Graph>;
  readonly pending: Map<number, Pending>;
  /** The write under way of each graph (one writer of a slot's files at a time). */
  readonly writes: Map<number, Promise<void>>;
  space: { model: string; dimensions: number } | undefined;
  /** Bumped when the model changes: a graph started for an earlier one is dropped when it arrives. */
  generation: number;
  readonly stopping: AbortController;
  /** Whether graphs are built in a worker thread (turned off when a worker cannot run here). */
  background: boolean;
  /** This owner's mark in the names of the graph files it writes (graph-files.ts). */
  readonly instance: string;
  /** Graph files named so far (their counter). */
  written: number;
}
