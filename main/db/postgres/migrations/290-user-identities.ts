import type { PostgresMigration } from './index.js';

/** SQLite's migration 290 (OpenID Connect identities and sign-ins under way), the same tables. */
export const pg290_user_identities: PostgresMigration = {
  version: 290,
  name: 'OpenID Connect identities and sign-ins under way',
  sql: `
CREATE TABLE user_identities (
  issuer TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX user_identities_user ON user_identities (user_id);
CREATE TABLE oidc_logins (
  state_hash TEXT PRIMARY KEY,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  redirect_url TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`,
};
