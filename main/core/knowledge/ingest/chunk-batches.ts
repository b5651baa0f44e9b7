/**
 * Chunks handed on in batches of about `BATCH_CHARS` characters of text: from the parser process
 * to the main process (each IPC message stays small to take in), and from a PDF parsed in parts to
 * the chunk writer (each batch is one short transaction).
 */
import type { Chunk } from './types.js';

export const BATCH_CHARS = 256 * 1024;

export function* chunkBatches(chunks: readonly Chunk[], maxChars = BATCH_CHARS): Generator<Chunk[]> {
  let batch: Chunk[] = [];
  let chars = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    chars += chunk.text.length;
    if (chars >= maxChars) {
      yield batch;
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
