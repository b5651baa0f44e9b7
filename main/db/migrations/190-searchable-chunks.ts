import type { Migration } from './index.js';

/**
 * Only the chunks of ready files are searchable (issue 12): a file's chunks are indexed batch by
 * batch while it is processed, and a crash can leave a file `processing` with some of them.
 *
 * `chunk_unready` holds the id runs (inclusive) of chunks whose artifact is not ready. Chunk ids are
 * reserved per batch, so a file being indexed adds one run per batch (consecutive batches of one
 * file merge into one run): the table stays a handful of rows, empty when nothing is being processed.
 * Searches leave these runs out inside their FTS5 query (and vector searches out of their
 * candidates), so a search pays for it only while a file of its knowledge bases is processed.
 * Why runs and not a join with `artifacts`: bm25 visits up to 10,000 matches a query, and a join
 * per match would cost milliseconds at a million chunks; one indexed probe of this table costs
 * nothing when it is empty.
 *
 * The chunks repository adds the runs as it inserts chunks of an artifact that is not ready; the
 * triggers below drop them when the artifact becomes ready or is deleted, and rebuild them from its
 * chunks if a ready artifact ever leaves `ready`.
 */
export const m190_searchable_chunks: Migration = {
  version: 190,
  name: 'chunk runs of artifacts that are not ready',
  sql: `
CREATE TABLE chunk_unready (
  lo INTEGER PRIMARY KEY,
  hi INTEGER NOT NULL,
  artifact_id TEXT NOT NULL
) STRICT;
CREATE INDEX chunk_unready_artifact ON chunk_unready(artifact_id);

CREATE TRIGGER artifacts_chunks_searchable AFTER UPDATE OF status ON artifacts
WHEN new.status = 'ready' AND old.status IS NOT 'ready' BEGIN
  DELETE FROM chunk_unready WHERE artifact_id = new.id;
END;

CREATE TRIGGER artifacts_chunks_unsearchable AFTER UPDATE OF status ON artifacts
WHEN old.status = 'ready' AND new.status IS NOT 'ready' BEGIN
  INSERT INTO chunk_unready (lo, hi, artifact_id)
  SELECT min(id), max(id), new.id FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS run FROM chunks WHERE artifact_id = new.id) GROUP BY run;
END;

CREATE TRIGGER artifacts_chunks_unready_gone AFTER DELETE ON artifacts BEGIN
  DELETE FROM chunk_unready WHERE artifact_id = old.id;
END;

-- A database from before: chunks of files left processing (or failed with chunks) stop being found.
-- CROSS JOIN keeps artifacts the outer loop: only the chunks of files not ready are read (by index),
-- never all chunks (a million-chunk database migrates in milliseconds).
INSERT INTO chunk_unready (lo, hi, artifact_id)
SELECT min(id), max(id), artifact_id FROM (
  SELECT c.id, c.artifact_id, c.id - row_number() OVER (PARTITION BY c.artifact_id ORDER BY c.id) AS run
  FROM artifacts a CROSS JOIN chunks c ON c.artifact_id = a.id WHERE a.status <> 'ready'
) GROUP BY artifact_id, run;
`,
};
