import type { Migration } from './index.js';

/**
 * Chunks and their keyword index.
 *
 * - Chunk ids are partitioned by knowledge base: id = slot × 2^32 + n, where `slot` is the
 *   knowledge base's number in `chunk_kbs` and n counts its chunks. A search restricted to some
 *   knowledge bases then asks FTS5 for a rowid range per knowledge base, which FTS5 answers by
 *   seeking inside each term's doclist: filtering by knowledge base never scans another one's
 *   postings. Slots (AUTOINCREMENT) and n (`next_seq`) only grow, so a chunk id is never reused
 *   and a vector left behind by a deleted chunk can never attach itself to a new one.
 * - The FTS5 index is external-content (`content='chunks'`): the text is stored once, in
 *   `chunks`, and `snippet()` reads it from there. A contentless table would save nothing more
 *   (the text must be kept anyway, for citations) and could not produce snippets. External
 *   content needs the triggers below to stay consistent; FTS5's 'delete' needs the old text,
 *   which the AFTER DELETE trigger still has. Deletes cascaded from artifacts (and from their
 *   knowledge bases and datasets) fire these triggers like any other delete.
 * - `chunk_terms` holds document frequencies of the index's most common terms, materialised from
 *   the fts5vocab table by the chunks repository (refreshTermStats), so pruning a query's common
 *   terms costs one primary-key lookup per term instead of a scan of its doclist.
 * - Vectors (sqlite-vec) are not created here: their table is created when an embedding model is
 *   configured and its dimension is known; `chunk_vector_index` records which model and dimension
 *   it was built for.
 */
export const m050_retrieval: Migration = {
  version: 50,
  name: 'chunks, keyword index, term statistics',
  sql: `
CREATE TABLE chunk_kbs (
  slot INTEGER PRIMARY KEY AUTOINCREMENT,
  kb_id TEXT NOT NULL UNIQUE REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  next_seq INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  artifact_id TEXT NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
  kb_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  text TEXT NOT NULL,
  location TEXT NOT NULL DEFAULT '{}'   -- JSON ChunkLocation
) STRICT;
CREATE INDEX chunks_artifact ON chunks(artifact_id, ord);

CREATE VIRTUAL TABLE chunks_fts USING fts5(
  text,
  content = 'chunks',
  content_rowid = 'id',
  tokenize = 'porter unicode61 remove_diacritics 2'
);

CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE OF id, text ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.text);
END;

-- One row per (stemmed) term and its document frequency: the index's vocabulary, read through
-- fts5vocab. Only terms in at least chunk_terms_meta.min_df chunks are kept.
CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab(chunks_fts, 'row');
CREATE TABLE chunk_terms (
  term TEXT PRIMARY KEY,
  df INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TABLE chunk_terms_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  chunk_count INTEGER NOT NULL,
  min_df INTEGER NOT NULL,
  refreshed_at TEXT NOT NULL
) STRICT;

CREATE TABLE chunk_vector_index (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  model TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
`,
};
