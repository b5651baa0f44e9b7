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

-- Model calls per UTC day, kept by a trigger as events are recorded, twice: per user (the per-user
-- figures) and per organization and model (per-model and per-day figures). Metrics over long
-- periods read whole days from these (a row per day and user, or day and model, instead of one per
-- call) and only the partial first and last days from usage_events.
CREATE TABLE usage_user_daily (
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  day TEXT NOT NULL,                  -- YYYY-MM-DD (UTC)
  calls INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  PRIMARY KEY (user_id, day)
) STRICT, WITHOUT ROWID;
CREATE TABLE usage_model_daily (
  organization_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  model_id TEXT NOT NULL,
  calls INTEGER NOT NULL,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, model_id)
) STRICT, WITHOUT ROWID;
INSERT INTO usage_user_daily (user_id, day, calls, input_tokens, output_tokens)
  SELECT user_id, substr(created_at, 1, 10), COUNT(*), SUM(input_tokens), SUM(output_tokens) FROM usage_events GROUP BY 1, 2;
INSERT INTO usage_model_daily (organization_id, day, model_id, calls, input_tokens, output_tokens)
  SELECT u.organization_id, substr(e.created_at, 1, 10), e.model_id, COUNT(*), SUM(e.input_tokens), SUM(e.output_tokens)
    FROM usage_events e JOIN users u ON u.id = e.user_id GROUP BY 1, 2, 3;
CREATE TRIGGER usage_events_daily AFTER INSERT ON usage_events BEGIN
  INSERT INTO usage_user_daily (user_id, day, calls, input_tokens, output_tokens)
    VALUES (NEW.user_id, substr(NEW.created_at, 1, 10), 1, NEW.input_tokens, NEW.output_tokens)
    ON CONFLICT (user_id, day) DO UPDATE SET
      calls = calls + 1, input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens;
  INSERT INTO usage_model_daily (organization_id, day, model_id, calls, input_tokens, output_tokens)
    SELECT organization_id, substr(NEW.created_at, 1, 10), NEW.model_id, 1, NEW.input_tokens, NEW.output_tokens FROM users WHERE id = NEW.user_id
    ON CONFLICT (organization_id, day, model_id) DO UPDATE SET
      calls = calls + 1, input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens;
END;

-- The partial days read usage_events by time: a covering index keeps that a range scan. The other
-- counts read a time range too.
DROP INDEX usage_events_time;
CREATE INDEX usage_events_time ON usage_events(created_at, user_id, model_id, input_tokens, output_tokens);
CREATE INDEX messages_sent_time ON messages(created_at, thread_id) WHERE role = 'user';
CREATE INDEX threads_time ON threads(created_at, user_id);
CREATE INDEX artifacts_time ON artifacts(created_at, user_id);
`,
};
