import type { Migration } from './index.js';

export const m080_thoughts: Migration = {
  version: 80,
  name: 'agent thoughts',
  sql: `
-- One step of an agentic answer, stored the moment it happens so a failed or cancelled answer
-- keeps the steps it took. The dataset a step concerned owns it: deleting the dataset deletes it.
-- (messages.thoughts, a JSON column from 030, stays unused: this table is where thoughts live.)
CREATE TABLE thoughts (
  id TEXT PRIMARY KEY,
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  dataset_id TEXT REFERENCES datasets(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('plan', 'tool_call', 'observation', 'answer')),
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX thoughts_message ON thoughts(message_id, step);
CREATE INDEX thoughts_dataset ON thoughts(dataset_id) WHERE dataset_id IS NOT NULL;
`,
};
