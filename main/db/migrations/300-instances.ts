import type { Migration } from './index.js';

/**
 * Issue 33, point 3: several instances on one database. Each running Parley has a row in
 * `instances`, its heartbeat in `seen_at`; one silent for longer than the lease is presumed dead and
 * its row goes. Background work (a file's processing, a knowledge base's embedding, a download, a
 * followed folder) is done by the instance holding its row in `claims`: a claim whose instance has
 * no row is free, so a dead instance's work is taken over by whoever claims it next. An answer being
 * written says which instance writes it (`written_by`, in the same row, so it is never briefly
 * unowned): one whose writer is gone is marked interrupted. Plain SQL: PostgreSQL shares it.
 */
export const m300_instances: Migration = {
  version: 300,
  name: 'instances, their heartbeats and their claims on background work',
  sql: `
CREATE TABLE instances (
  id TEXT PRIMARY KEY,                -- inst_…
  host TEXT NOT NULL,                 -- os.hostname(): on its own host, a dead process is known at once
  pid INTEGER NOT NULL,
  recovers INTEGER NOT NULL,          -- 1: takes over work (a server); 0: joins one (the MCP server)
  started_at TEXT NOT NULL,
  seen_at TEXT NOT NULL
);

CREATE TABLE claims (
  kind TEXT NOT NULL,                 -- ingest | embedding | download | folder
  key TEXT NOT NULL,                  -- the artifact, knowledge base, download or folder id
  instance TEXT NOT NULL,
  claimed_at TEXT NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX claims_instance ON claims (instance);

ALTER TABLE messages ADD COLUMN written_by TEXT;
ALTER TABLE comparisons ADD COLUMN written_by TEXT;
`,
};
