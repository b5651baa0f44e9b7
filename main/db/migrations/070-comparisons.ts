import type { Migration } from './index.js';

export const m070_comparisons: Migration = {
  version: 70,
  name: 'model comparisons and votes',
  sql: `
CREATE TABLE comparisons (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,   -- cursor order: stable while rows are inserted
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL,           -- the leaderboard's scope
  prompt TEXT NOT NULL,
  blind INTEGER NOT NULL CHECK (blind IN (0, 1)),
  dataset_ids TEXT NOT NULL DEFAULT '[]',  -- JSON array
  citations TEXT NOT NULL DEFAULT '[]',    -- JSON Citation[]: the passages every model was given
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX comparisons_user ON comparisons(user_id, seq);

-- One model's answer. No foreign key to models: deleting a model keeps its answers, under the
-- name it had when it answered.
CREATE TABLE comparison_responses (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  model_id TEXT NOT NULL,
  model_name TEXT NOT NULL,
  content TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'error', 'cancelled', 'interrupted')),
  latency_ms INTEGER,
  first_token_ms INTEGER,
  input_tokens INTEGER,
  output_tokens INTEGER,
  error_code TEXT,
  error_detail TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (comparison_id, position)
) STRICT;
CREATE INDEX comparison_responses_streaming ON comparison_responses(status) WHERE status = 'streaming';

CREATE TABLE comparison_votes (
  id TEXT PRIMARY KEY,
  comparison_id TEXT NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  outcome TEXT NOT NULL CHECK (outcome IN ('winner', 'tie', 'both_bad')),
  winner_response_id TEXT REFERENCES comparison_responses(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  UNIQUE (comparison_id, user_id),
  CHECK ((outcome = 'winner') = (winner_response_id IS NOT NULL))
) STRICT;

-- usage_events learns a third source, 'comparison' (message_id then holds the response id).
-- SQLite cannot alter a CHECK: the table is rebuilt with its rows.
CREATE TABLE usage_events_070 (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('chat', 'openai', 'comparison')),
  message_id TEXT,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
INSERT INTO usage_events_070 (id, user_id, model_id, source, message_id, input_tokens, output_tokens, created_at)
  SELECT id, user_id, model_id, source, message_id, input_tokens, output_tokens, created_at FROM usage_events;
DROP TABLE usage_events;
ALTER TABLE usage_events_070 RENAME TO usage_events;
CREATE INDEX usage_events_time ON usage_events(created_at);
`,
};
