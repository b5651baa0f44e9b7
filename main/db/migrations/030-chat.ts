import type { Migration } from './index.js';

export const m030_chat: Migration = {
  version: 30,
  name: 'models, threads and messages',
  sql: `
-- Registered models. Built-in models are not rows: they come with the app.
CREATE TABLE models (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('third_party', 'fine_tuned')),
  provider TEXT NOT NULL CHECK (provider IN ('openai_compatible', 'anthropic', 'llama_cpp')),
  model TEXT NOT NULL,
  endpoint_url TEXT,
  base_model TEXT,
  capabilities TEXT NOT NULL,         -- JSON, validated by the Capabilities schema
  api_key_secret BLOB,                -- encrypted (SecretBox), never returned
  created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE model_overrides (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,             -- a registered or built-in model id
  endpoint_url TEXT NOT NULL,
  api_key_secret BLOB,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (workspace_id, model_id)
) STRICT;

CREATE TABLE threads (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,   -- cursor order: stable while rows are inserted
  id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  suggestions_enabled INTEGER NOT NULL DEFAULT 0,
  system_prompt TEXT,
  workflow_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX threads_user ON threads(user_id, seq);

-- Thread configuration per dataset. Datasets arrive with the knowledge-base work; deleting one
-- deletes these rows in the same transaction.
CREATE TABLE thread_datasets (
  thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
  dataset_id TEXT NOT NULL,
  PRIMARY KEY (thread_id, dataset_id)
) STRICT;
CREATE INDEX thread_datasets_dataset ON thread_datasets(dataset_id);

CREATE TABLE messages (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  thread_id TEXT NOT NULL REFERENCES threads(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
  content TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'error', 'cancelled', 'interrupted')),
  model_id TEXT,
  routing TEXT,                       -- JSON Routing
  citations TEXT NOT NULL DEFAULT '[]',
  thoughts TEXT NOT NULL DEFAULT '[]',
  input_tokens INTEGER,
  output_tokens INTEGER,
  error_code TEXT,
  error_detail TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX messages_thread ON messages(thread_id, seq);
CREATE INDEX messages_streaming ON messages(status) WHERE status = 'streaming';

-- Tokens of every model call, whoever made it (chat, the OpenAI-compatible facade): what metrics sum.
CREATE TABLE usage_events (
  id INTEGER PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  model_id TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('chat', 'openai')),
  message_id TEXT,
  input_tokens INTEGER NOT NULL,
  output_tokens INTEGER NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX usage_events_time ON usage_events(created_at);
`,
};
