import type { Migration } from './index.js';

/**
 * Watched folders (issue 30): a dataset follows directories on disk. Each file the folder brings is
 * an ordinary artifact (same pipeline, statuses and errors as uploads) that also remembers where it
 * comes from (`folder_id`, `source_path` relative to the folder) and the size and mtime it had when
 * last read, so a start-up reconcile re-reads only files whose size or mtime moved, and parses again
 * only those whose content hash changed. `replacing` marks a ready file being parsed again (below).
 *
 * No foreign key from artifacts to folders: removing a folder removes its artifacts explicitly (their
 * blobs too), which a cascade could not do.
 */
export const m200_folders: Migration = {
  version: 200,
  name: 'watched folders',
  sql: `
CREATE TABLE folders (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  path TEXT NOT NULL,
  include TEXT NOT NULL DEFAULT '[]',
  exclude TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL CHECK (status IN ('scanning', 'watching', 'paused', 'error')),
  watch TEXT NOT NULL DEFAULT 'events' CHECK (watch IN ('events', 'polling')),
  error_code TEXT,
  error_detail TEXT,
  skipped_count INTEGER NOT NULL DEFAULT 0,
  skipped TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  last_scan_at TEXT
) STRICT;
CREATE INDEX folders_dataset ON folders(dataset_id, seq);

ALTER TABLE artifacts ADD COLUMN folder_id TEXT;
ALTER TABLE artifacts ADD COLUMN source_path TEXT;
ALTER TABLE artifacts ADD COLUMN source_mtime_ms INTEGER;
CREATE INDEX artifacts_folder ON artifacts(folder_id, source_path) WHERE folder_id IS NOT NULL;
CREATE INDEX artifacts_folder_sha ON artifacts(folder_id, sha256) WHERE folder_id IS NOT NULL;

-- A ready file whose bytes changed is parsed again while its old chunks stay searchable: its new
-- chunks are unready runs meanwhile, and the old ones are deleted in the transaction that marks it
-- ready (which drops the runs), so a search sees one version or the other, never both nor neither.
ALTER TABLE artifacts ADD COLUMN replacing INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER artifacts_chunks_unsearchable;
CREATE TRIGGER artifacts_chunks_unsearchable AFTER UPDATE OF status ON artifacts
WHEN old.status = 'ready' AND new.status IS NOT 'ready' AND new.replacing = 0 BEGIN
  INSERT INTO chunk_unready (lo, hi, artifact_id)
  SELECT min(id), max(id), new.id FROM (SELECT id, id - row_number() OVER (ORDER BY id) AS run FROM chunks WHERE artifact_id = new.id) GROUP BY run;
END;
`,
};
