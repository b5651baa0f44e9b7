import type { Migration } from './index.js';

/**
 * The approximate vector index (HNSW, one file per knowledge base beside the database) is derived
 * from `chunk_vectors`, the source of truth:
 * - `chunk_vector_slots.version` counts the changes to a knowledge base's vectors; an index file
 *   records the version it reflects, so a file that is missing or older than the vectors (a crash
 *   before it was saved, another writer) is rebuilt from the table instead of trusted;
 * - deleting a chunk (directly or cascaded from its artifact, knowledge base or dataset) queues its
 *   id in `chunk_vector_gone`: a plain trigger, because a trigger touching the vec0 table would
 *   fail on a connection without sqlite-vec. The chunks repository removes queued ids from the
 *   vectors and the index before it next searches or writes vectors.
 */
export const m170_vector_index: Migration = {
  version: 170,
  name: 'vector index versions and deleted-chunk queue',
  sql: `
CREATE TABLE chunk_vector_slots (
  slot INTEGER PRIMARY KEY,
  version INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE chunk_vector_gone (
  chunk_id INTEGER PRIMARY KEY
) STRICT;

CREATE TRIGGER chunks_vector_gone AFTER DELETE ON chunks
WHEN EXISTS (SELECT 1 FROM chunk_vector_index) BEGIN
  INSERT OR IGNORE INTO chunk_vector_gone (chunk_id) VALUES (old.id);
END;
`,
};
