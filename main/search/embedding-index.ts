import { toVector } from './vector.js';
import type { Embedder, RetrievalLog, RetrievalSource } from './types.js';

export interface IndexEmbeddingsOptions {
  /** The embedding model's name: a different one than the index's rebuilds the index. */
  model: string;
  /** Only these knowledge bases (default: all). */
  kb_ids?: string[];
  /** Texts per embeddings call. Default 32. */
  batchSize?: number;
  log?: RetrievalLog;
  /** After each stored batch, with the chunk ids it stored (per-file progress); `reset` when the vector table was rebuilt first. */
  onBatch?: (chunkIds: number[], reset: boolean) => void;
  /** Asked before each batch: true stops the pass there (shutdown). */
  stopped?: () => boolean;
}

/**
 * Embeds the chunks that have no vector yet and stores their vectors (sqlite-vec), creating the
 * vector table on the first batch, once the dimension is known. Returns how many chunks it
 * embedded: 0 when sqlite-vec could not be loaded on this connection.
 */
export async function indexEmbeddings(source: RetrievalSource, embed: Embedder, options: IndexEmbeddingsOptions): Promise<number> {
  const { chunks } = source;
  // Where sqlite-vec could not be loaded, the connection said so when it opened.
  if (!chunks.vectorsAvailable()) return 0;
  const size = Math.max(1, Math.min(2_048, Math.floor(options.batchSize ?? 32)));
  const ranges = options.kb_ids ? chunks.kbRanges(options.kb_ids) : chunks.allKbRanges();
  const current = chunks.vectorIndex();
  let dimensions = current?.model === options.model && chunks.hasVectorTable() ? current.dimensions : undefined;
  let embedded = 0;
  ranges: for (const range of ranges) {
    let after = range.lo - 1;
    for (;;) {
      // Shutdown: stop between batches; what is stored stays (and is saved below), the rest is embedded at the next start.
      if (options.stopped?.()) break ranges;
      const batch = dimensions === undefined ? chunks.chunksAfter(after, range.hi, size) : chunks.chunksWithoutVectors(after, range.hi, size);
      if (batch.length === 0) break;
      const values = await embed(batch.map((c) => c.text));
      if (values.length !== batch.length) throw new Error(`The embedding model returned ${values.length} vectors for ${batch.length} texts`);
      const width = dimensions ?? values[0]?.length ?? 0;
      const vectors = values.map((v) => toVector(v, width));
      if (vectors.some((v) => v === undefined)) throw new Error(`The embedding model returned vectors that are not all finite and ${width}-dimensional`);
      let reset = false;
      if (dimensions === undefined) {
        reset = chunks.ensureVectorTable(options.model, width);
        dimensions = width;
      }
      const stored = chunks.insertVectors(batch.map((c, i) => ({ id: c.id, vector: vectors[i]! })));
      embedded += stored.length;
      options.onBatch?.(stored, reset);
      after = batch[batch.length - 1]!.id;
    }
  }
  // The vector graphs grew with each batch; saved now (off the main thread, not waited for: searches
  // go on meanwhile, passes that end quickly share a write), the next start loads them instead of rebuilding.
  if (embedded > 0) void chunks.saveVectorIndex();
  return embedded;
}
