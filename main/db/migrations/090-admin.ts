import type { Migration } from './index.js';

export const m090_admin: Migration = {
  version: 90,
  name: 'workflows, upload authorship and usage-metrics indexes',
  sql: `
-- Chat setups admins prepare for their organization. The built-in Simple Chat is not a row: it
-- comes with the app and follows the [features] simple_chat flag.
CREATE TABLE workflows (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  system_prompt TEXT NOT NULL,
  model_endpoint_override TEXT,
  agentic INTEGER NOT NULL DEFAULT 0 CHECK (agentic IN (0, 1)),
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, name)
) STRICT;

-- A workflow's default datasets; deleting a dataset takes it out of every workflow.
CREATE TABLE workflow_datasets (
  workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (workflow_id, dataset_id)
) STRICT;
CREATE INDEX workflow_datasets_dataset ON workflow_datasets(dataset_id);

-- Who uploaded each file (multipart uploads have no upload row to say it). Earlier files take the
-- user of their upload, when they had one.
ALTER TABLE artifacts ADD COLUMN user_id TEXT REFERENCES users(id) ON DELETE SET NULL;
UPDATE artifacts SET user_id = (SELECT user_id FROM uploads WHERE uploads.id = artifacts.upload_id) WHERE upload_id IS NOT NULL;

-- Metrics read a time range and group by user: covering indexes keep each a range scan.
DROP INDEX usage_events_time;
CREATE INDEX usage_events_time ON usage_events(created_at, user_id, model_id, input_tokens, output_tokens);
CREATE INDEX messages_sent_time ON messages(created_at, thread_id) WHERE role = 'user';
CREATE INDEX threads_time ON threads(created_at, user_id);
CREATE INDEX artifacts_time ON artifacts(created_at, user_id);
`,
};
