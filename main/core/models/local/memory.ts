import { freemem } from 'node:os';
import type { FreeMemory, ModelShape } from '../../platform/ports/local-models.js';

/**
 * What a loaded local model costs in memory, estimated before loading it: its weights (the file,
 * mapped whole) plus its KV cache, plus a margin for llama.cpp's compute buffers.
 *
 * The KV cache is what the context size really costs. node-llama-cpp's `createContext({ contextSize,
 * sequences })` gives EVERY sequence its own `contextSize` tokens: it asks llama.cpp for
 * `contextSize × sequences` cells (padded up to a multiple of 256), so `[local_models] parallel = 2`
 * doubles the cache, it does not split one context between the answers. Each cell holds, per layer,
 * a key and a value of every KV head in F16 (node-llama-cpp's default cache type).
 */

/** llama.cpp pads the context to a multiple of this many cells. */
const CELL_PADDING = 256;
/** F16 keys and values. */
const BYTES_PER_ELEMENT = 2;
/** Compute buffers and llama.cpp's own state: small next to the weights and cache, kept on the safe side. */
const OVERHEAD_BYTES = 64 * 1024 ** 2;
const OVERHEAD_FRACTION = 0.05;
/** Without the model's shape, its cache is guessed as this fraction of its weights per 1k cells (safe for 1–8B models). */
const UNKNOWN_SHAPE_KV_FRACTION_PER_K = 0.03;

/** KV cache bytes for `contextSize` tokens per sequence × `sequences`. */
export function kvCacheBytes(shape: ModelShape, contextSize: number, sequences: number): number {
  const cells = Math.ceil((contextSize * sequences) / CELL_PADDING) * CELL_PADDING;
  return cells * shape.layers * shape.kv_heads * (shape.key_length + shape.value_length) * BYTES_PER_ELEMENT;
}

export interface MemoryEstimate {
  weights_bytes: number;
  kv_cache_bytes: number;
  total_bytes: number;
}

/**
 * Memory a chat model needs loaded with `contextSize` tokens per sequence for `sequences` parallel
 * answers. An embedding model (no cache kept between calls) needs its weights and the overhead.
 */
export function estimateMemory(input: { weightsBytes: number; shape: ModelShape | null; contextSize: number; sequences: number; embedding?: boolean }): MemoryEstimate {
  const { weightsBytes, shape, contextSize, sequences } = input;
  const kv = input.embedding
    ? 0
    : shape
      ? kvCacheBytes(shape, contextSize, sequences)
      : Math.round(weightsBytes * UNKNOWN_SHAPE_KV_FRACTION_PER_K * ((contextSize * sequences) / 1024));
  const total = weightsBytes + kv + Math.round(OVERHEAD_BYTES + weightsBytes * OVERHEAD_FRACTION);
  return { weights_bytes: weightsBytes, kv_cache_bytes: kv, total_bytes: total };
}

export type { FreeMemory };

/**
 * The OS's available memory, read at most once per `refreshMs` and never on the caller's path: the
 * read (`/proc/meminfo` on Linux) happens after the call that found the value stale returns.
 */
export function sampledFreeMemory(refreshMs = 1000, read: () => number = freemem, now: () => number = Date.now): FreeMemory {
  let value = read();
  let at = now();
  let pending = false;
  return () => {
    if (!pending && now() - at >= refreshMs) {
      pending = true;
      setImmediate(() => {
        value = read();
        at = now();
        pending = false;
      });
    }
    return value;
  };
}
