import type { Migration } from './index.js';

/**
 * Issue 33, point 4: sign-in through the team's OpenID Connect provider. A provider's user is
 * known by its issuer and subject (an email may change or be reused); `oidc_logins` holds a
 * sign-in under way (PKCE verifier, nonce) by the hash of its state, in the database so that
 * another instance on the same database may finish it. Plain SQL: PostgreSQL has its twin.
 */
export const m290_user_identities: Migration = {
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
  state_hash TEXT PRIMARY KEY,        -- sha256 of the state sent to the provider
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  redirect_url TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`,
};
