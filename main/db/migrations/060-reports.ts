import type { Migration } from './index.js';

export const m060_reports: Migration = {
  version: 60,
  name: 'reports',
  sql: `
CREATE TABLE reports (
  id TEXT PRIMARY KEY,
  dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  user_id TEXT REFERENCES users(id) ON DELETE SET NULL,
  format TEXT NOT NULL CHECK (format IN ('markdown', 'html')),
  status TEXT NOT NULL CHECK (status IN ('processing', 'ready', 'failed')),
  content TEXT,
  summary_model_id TEXT,
  error_detail TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX reports_dataset ON reports(dataset_id);
`,
};
