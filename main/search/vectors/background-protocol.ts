import type { AnnParams } from './ann-params.js';

/** What the background worker is asked to do (see background-worker.ts). */
export type BackgroundJob =
  | {
      kind: 'graph';
      dbFile: string;
      nativeBinding?: string | undefined;
      slot: number;
      model: string;
      dimensions: number;
      params: AnnParams;
      /** The graphs' directory, and the new graph file to write there (graph-files.ts names it). */
      dir: string;
      graphFile: string;
    }
  | { kind: 'term-stats'; dbFile: string; nativeBinding?: string | undefined; minDf: number };

export type BackgroundResult =
  | { kind: 'graph'; ok: true; version: number; count: number }
  | { kind: 'term-stats'; ok: true; terms: Array<[string, number]>; chunksInserted: number }
  | { kind: BackgroundJob['kind']; ok: false; reason: string };
