/**
 * What the chunks repository hands off to main/search, which sits above main/db and plugs itself
 * in (main/search/chunks.ts): the vector graphs, and work that runs in worker threads. This layer
 * holds the SQL only; without these the repository still answers, as it does where hnswlib or a
 * worker cannot run: vectors by sqlite-vec's exact kNN, term statistics refreshed in place.
 */

/** What a knowledge base's graph is built from: the vectors table, the source of truth. */
export interface VectorGraphSource {
  /** The knowledge base's current vector version (bumped in the transaction of every vector change). */
  version(slot: number): number;
  /** Every vector of the knowledge base, for a rebuild. */
  vectors(slot: number): Iterable<{ id: number; vector: Float32Array }>;
  count(slot: number): number;
}

/** Approximate nearest neighbours, one graph per knowledge base, kept in step with the vectors table. */
export interface VectorGraphs {
  /** Whether graphs can be built here. */
  available(): boolean;
  /** The model and dimension of the vectors; a change forgets every graph. */
  use(model: string, dimensions: number): void;
  /** Forgets every graph (the vectors table was dropped). */
  reset(): void;
  /** Vector changes just committed, moving the knowledge base from version `from` to `to`. */
  apply(slot: number, from: number, to: number, added: ReadonlyArray<{ id: number; vector: Float32Array }>, removed: readonly number[]): void;
  /** The `k` nearest of one knowledge base, or undefined when no graph serves (yet): exact search then. */
  search(vector: Float32Array, slot: number, k: number, searchable?: (chunkId: number) => boolean, query?: number[]): Array<{ id: number; distance: number }> | undefined;
  saveAll(): Promise<void>;
  /** Asks for a knowledge base's graph now; true when it serves already. */
  warm(slot: number): boolean;
  serving(slot: number): boolean;
  /** Shutdown: stops the graphs on their way, saves what is unsaved (bounded). */
  stop(): Promise<void>;
  settled(): Promise<void>;
}

/** Makes the graphs of one database (`dbFile` undefined: in memory). */
export type VectorGraphsFactory = (dbFile: string | undefined, source: VectorGraphSource) => VectorGraphs;

/** The index's vocabulary read off the main thread: the terms in at least `minDf` chunks, and the chunks inserted at that moment. */
export type TermSnapshotReader = (
  dbFile: string,
  minDf: number,
  signal?: AbortSignal,
) => Promise<{ ok: true; terms: Array<[string, number]>; chunksInserted: number } | { ok: false; reason: string }>;

/** What main/search plugs into the chunks repository. */
export interface ChunkIndexPlugins {
  graphs?: VectorGraphsFactory | undefined;
  termSnapshot?: TermSnapshotReader | undefined;
}

/** No graphs: every vector search is sqlite-vec's exact kNN. */
export const NO_GRAPHS: VectorGraphs = {
  available: () => false,
  use: () => undefined,
  reset: () => undefined,
  apply: () => undefined,
  search: () => undefined,
  saveAll: () => Promise.resolve(),
  warm: () => false,
  serving: () => false,
  stop: () => Promise.resolve(),
  settled: () => Promise.resolve(),
};
