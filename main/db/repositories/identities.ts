import type { SqlDb as Db } from '../sql.js';

/** A sign-in through an OpenID Connect provider under way: what finishing it needs, by the hash of its state. */
export interface PendingOidcLogin {
  state_hash: string;
  code_verifier: string;
  nonce: string;
  redirect_url: string;
  expires_at: string;
}

/**
 * Users as an OpenID Connect provider knows them (issuer + subject), sign-ins under way, and the
 * organizations a provider's groups map to (found by name).
 */
export function createIdentitiesRepo(db: Db) {
  const userOf = db.prepare<[string, string], { user_id: string }>('SELECT user_id FROM user_identities WHERE issuer = ? AND subject = ?');
  const link = db.prepare('INSERT INTO user_identities (issuer, subject, user_id, created_at) VALUES (?, ?, ?, ?)');
  const insertLogin = db.prepare(
    'INSERT INTO oidc_logins (state_hash, code_verifier, nonce, redirect_url, expires_at) VALUES (@state_hash, @code_verifier, @nonce, @redirect_url, @expires_at)',
  );
  const getLogin = db.prepare<[string], PendingOidcLogin>('SELECT state_hash, code_verifier, nonce, redirect_url, expires_at FROM oidc_logins WHERE state_hash = ?');
  const deleteLogin = db.prepare('DELETE FROM oidc_logins WHERE state_hash = ?');
  const deleteExpired = db.prepare('DELETE FROM oidc_logins WHERE expires_at <= ?');
  const organizationByName = db.prepare<[string], { id: string; workspace_id: string }>(
    `SELECT o.id, (SELECT w.id FROM workspaces w WHERE w.organization_id = o.id ORDER BY w.created_at, w.id LIMIT 1) AS workspace_id
     FROM organizations o WHERE o.name = ? ORDER BY o.created_at, o.id LIMIT 1`,
  );
  return {
    userOf: (issuer: string, subject: string): string | undefined => userOf.get(issuer, subject)?.user_id,
    link: (issuer: string, subject: string, userId: string, now: string) => void link.run(issuer, subject, userId, now),
    /** Stores a sign-in under way, dropping those that expired (nothing else clears them). */
    startLogin(login: PendingOidcLogin, now: string) {
      deleteExpired.run(now);
      insertLogin.run(login);
    },
    /** The sign-in under way with this state hash, removed: a state is used once. */
    takeLogin(stateHash: string): PendingOidcLogin | undefined {
      const login = getLogin.get(stateHash);
      // Whoever deletes it finishes it: two instances handed the same redirect cannot both.
      return login && deleteLogin.run(stateHash).changes > 0 ? login : undefined;
    },
    /** An organization by name, with its first workspace; undefined when none (or it has no workspace). */
    organizationByName(name: string): { id: string; workspace_id: string } | undefined {
      const found = organizationByName.get(name);
      return found?.workspace_id ? found : undefined;
    },
  };
}

export type IdentitiesRepo = ReturnType<typeof createIdentitiesRepo>;
