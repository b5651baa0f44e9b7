import { createRequire } from 'node:module';
import type { HierarchicalNSW as Hnsw } from 'hnswlib-node';
import type { AnnParams } from './ann-params.js';

export type { Hnsw };
export type HnswModule = { HierarchicalNSW: new (space: 'cosine', dimensions: number) => Hnsw };
let loaded: HnswModule | null | undefined;

/** hnswlib-node is a native addon built at install; where it failed to build (null), vectors are searched exactly. */
export function hnswModule(): HnswModule | null {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('hnswlib-node') as HnswModule;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** An empty cosine index with room for `capacity` vectors and a quarter more (it doubles when full). */
export function newIndex(hnsw: HnswModule, dimensions: number, capacity: number, params: Pick<AnnParams, 'm' | 'efConstruction'>): Hnsw {
  const index = new hnsw.HierarchicalNSW('cosine', dimensions);
  index.initIndex({ maxElements: Math.max(1_024, Math.ceil(capacity * 1.25)), m: params.m, efConstruction: params.efConstruction, randomSeed: 100 });
  return index;
}

/** Adds a vector under its graph label, growing the index when it is full. */
export function addToIndex(index: Hnsw, label: number, vector: Float32Array): void {
  if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
  index.addPoint(Array.from(vector), label);
}

/** Cosine distance, as hnswlib's cosine space (and sqlite-vec's) computes it. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
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
