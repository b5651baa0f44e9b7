import type { Migration } from './index.js';

export const m110_model_downloads: Migration = {
  version: 110,
  name: 'model downloads',
  sql: `
-- Model files being fetched into <data-dir>/models/. The bytes so far live in a temporary file
-- (downloads/<id>.part in the data directory); a restart resumes every row not yet final from it.
CREATE TABLE model_downloads (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  file_name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'downloading', 'verifying', 'complete', 'failed', 'cancelled')),
  bytes_done INTEGER NOT NULL DEFAULT 0,
  bytes_total INTEGER,
  sha256_expected TEXT,
  sha256_source TEXT CHECK (sha256_source IN ('given', 'server')),
  sha256 TEXT,
  -- The server's validator (ETag) of the bytes so far: a resumed request sends it as If-Range so
  -- a file that changed on the server starts over instead of being spliced.
  validator TEXT,
  error TEXT,
  resumes INTEGER NOT NULL DEFAULT 0,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX model_downloads_active ON model_downloads(status) WHERE status IN ('queued', 'downloading', 'verifying');
`,
};
