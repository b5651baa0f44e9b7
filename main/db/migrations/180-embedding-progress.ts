import type { Migration } from './index.js';

/**
 * Each file's embedding progress (issue 9 item 4): embedding runs in the background after a file
 * is ready, batch by batch, and `embedded_chunks` of its `chunk_count` have vectors so far;
 * `embedding_error` says why it stopped. Counted as batches are stored rather than from the vector
 * table, which only connections with sqlite-vec can read.
 */
export const m180_embedding_progress: Migration = {
  version: 180,
  name: 'per-artifact embedding progress',
  sql: `
ALTER TABLE artifacts ADD COLUMN embedded_chunks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE artifacts ADD COLUMN embedding_error TEXT;
`,
};
