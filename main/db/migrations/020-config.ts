import type { Migration } from './index.js';

export const m020_config: Migration = {
  version: 20,
  name: 'config history',
  sql: `
-- Every valid configuration that was in force, newest last: the history, the rollback source and
-- the "last good version" used when the file on disk is invalid at start-up.
CREATE TABLE config_versions (
  version INTEGER PRIMARY KEY,
  toml TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  source TEXT NOT NULL CHECK (source IN ('default', 'file', 'admin', 'rollback'))
) STRICT;
`,
};
