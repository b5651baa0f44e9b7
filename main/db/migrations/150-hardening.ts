import type { Migration } from './index.js';

export const m150_hardening: Migration = {
  version: 150,
  name: 'keyed credential hashes, models per organization, thoughts owned by every dataset of their call',
  sql: `
-- Credentials were stored as bare SHA-256; new ones are HMAC-SHA-256 under a per-installation key
-- kept outside the database (credentials.key). Existing rows stay 'sha256' until their secret is
-- next presented: then it is checked once the old way and rehashed (auth/credential-hash.ts), so no
-- one is locked out and a copied database alone cannot confirm a guessed key.
ALTER TABLE api_keys ADD COLUMN hash_kind TEXT NOT NULL DEFAULT 'sha256' CHECK (hash_kind IN ('sha256', 'hmac_sha256'));
ALTER TABLE user_tokens ADD COLUMN hash_kind TEXT NOT NULL DEFAULT 'sha256' CHECK (hash_kind IN ('sha256', 'hmac_sha256'));
ALTER TABLE access_tokens ADD COLUMN hash_kind TEXT NOT NULL DEFAULT 'sha256' CHECK (hash_kind IN ('sha256', 'hmac_sha256'));
-- The display prefix shows the kind and four characters (pk_AbCd), not ten.
UPDATE api_keys SET prefix = substr(prefix, 1, 7);
CREATE INDEX user_tokens_user ON user_tokens(user_id, expires_at);

-- Models belong to an organization (overrides already do, through their workspace). Existing
-- models go to the organization of whoever registered them, else the first organization.
ALTER TABLE models ADD COLUMN organization_id TEXT REFERENCES organizations(id) ON DELETE CASCADE;
UPDATE models SET organization_id = coalesce(
  (SELECT organization_id FROM users WHERE users.id = models.created_by),
  (SELECT id FROM organizations ORDER BY created_at, rowid LIMIT 1));
CREATE INDEX models_organization ON models(organization_id, created_at);

-- The datasets an agentic call drew on. Every thought of the call belongs to each of them, so
-- deleting any one deletes all the call's thoughts (also the answer step, which names no dataset).
-- Earlier calls are known by the datasets their thoughts named.
CREATE TABLE agent_call_datasets (
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  dataset_id TEXT NOT NULL REFERENCES datasets(id) ON DELETE CASCADE,
  PRIMARY KEY (message_id, dataset_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX agent_call_datasets_dataset ON agent_call_datasets(dataset_id);
INSERT OR IGNORE INTO agent_call_datasets (message_id, dataset_id)
  SELECT DISTINCT message_id, dataset_id FROM thoughts WHERE dataset_id IS NOT NULL;
-- A trigger, not code in one handler: whatever deletes a dataset (the API, an organization going)
-- takes the thoughts of the calls that drew on it.
CREATE TRIGGER datasets_delete_thoughts BEFORE DELETE ON datasets BEGIN
  DELETE FROM thoughts WHERE message_id IN (SELECT message_id FROM agent_call_datasets WHERE dataset_id = OLD.id);
END;
`,
};
