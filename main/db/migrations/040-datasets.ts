import type { Migration } from './index.js';

export const m040_datasets: Migration = {
  version: 40,
  name: 'datasets, knowledge bases, artifacts and uploads',
  sql: `
CREATE TABLE datasets (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  owner_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX datasets_organization ON datasets(organization_id, seq);

-- One knowledge base backs each dataset; "database" is the only backend for now.
CREATE TABLE knowledge_bases (
  id TEXT PRIMARY KEY,
  dataset_id TEXT NOT NULL UNIQUE REFERENCES datasets(id) ON DELETE CASCADE,
  backend TEXT NOT NULL DEFAULT 'database' CHECK (backend IN ('database')),
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE uploads (
  id TEXT PRIMARY KEY,
  kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  status TEXT NOT NULL CHECK (status IN ('open', 'completed', 'expired')),
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  completed_at TEXT
) STRICT;

-- One uploaded file. Its bytes live in the data directory under their SHA-256, never under a
-- name a user chose; 'key' is the user's name for it, unique in its knowledge base.
CREATE TABLE artifacts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  kb_id TEXT NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  filename TEXT NOT NULL,
  declared_mime_type TEXT,
  mime_type TEXT,
  size INTEGER NOT NULL,
  part_size INTEGER NOT NULL,
  sha256 TEXT,
  upload_id TEXT REFERENCES uploads(id) ON DELETE SET NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'uploading', 'processing', 'ready', 'failed')),
  progress REAL NOT NULL DEFAULT 0,
  error_code TEXT,
  error_detail TEXT,
  chunk_count INTEGER NOT NULL DEFAULT 0,
  metadata TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (kb_id, key)
) STRICT;
CREATE INDEX artifacts_kb_status ON artifacts(kb_id, status, seq);
CREATE INDEX artifacts_upload ON artifacts(upload_id);
CREATE INDEX artifacts_processing ON artifacts(status) WHERE status = 'processing';

-- Parts received so far; re-sending a part replaces it (idempotent).
CREATE TABLE upload_parts (
  artifact_id TEXT NOT NULL REFERENCES artifacts(id) ON DELETE CASCADE,
  part INTEGER NOT NULL,
  size INTEGER NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (artifact_id, part)
) STRICT;
`,
};
