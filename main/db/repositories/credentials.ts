import type { Db } from '../connection.js';

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface UserTokenRecord {
  id: string;
  user_id: string;
  expires_at: string;
  quota: number | null;
  used: number;
}

/** API keys, trial user tokens and legacy access tokens: every secret stored only as a hash. */
export function createCredentialsRepo(db: Db) {
  const insertKey = db.prepare(
    'INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, created_at) VALUES (@id, @user_id, @name, @prefix, @secret_hash, @created_at)',
  );
  const keyByHash = db.prepare<[string], ApiKeyRecord>(
    'SELECT id, user_id, name, prefix, created_at, last_used_at FROM api_keys WHERE secret_hash = ? AND revoked_at IS NULL',
  );
  const keysByUser = db.prepare<[string], ApiKeyRecord>(
    'SELECT id, user_id, name, prefix, created_at, last_used_at FROM api_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
  );
  const revokeKey = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL');
  // Minute resolution: a busy client must not turn every request into a write.
  const touchKey = db.prepare(
    "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?, '-60 seconds'))",
  );

  const insertUserToken = db.prepare(
    `INSERT INTO user_tokens (id, user_id, secret_hash, expires_at, quota, created_by, created_at)
     VALUES (@id, @user_id, @secret_hash, @expires_at, @quota, @created_by, @created_at)`,
  );
  const userTokenByHash = db.prepare<[string], UserTokenRecord>(
    'SELECT id, user_id, expires_at, quota, used FROM user_tokens WHERE secret_hash = ?',
  );
  // One statement checks and spends a unit of quota, so two concurrent requests cannot both pass.
  const spendUserToken = db.prepare('UPDATE user_tokens SET used = used + 1 WHERE id = ? AND (quota IS NULL OR used < quota)');

  const insertAccessToken = db.prepare(
    'INSERT INTO access_tokens (id, user_id, secret_hash, created_at) VALUES (@id, @user_id, @secret_hash, @created_at)',
  );
  const accessTokenByHash = db.prepare<[string], { id: string; user_id: string }>(
    'SELECT id, user_id FROM access_tokens WHERE secret_hash = ? AND revoked_at IS NULL',
  );

  return {
    insertApiKey: (row: { id: string; user_id: string; name: string; prefix: string; secret_hash: string; created_at: string }) =>
      insertKey.run(row),
    findApiKey: (secretHash: string) => keyByHash.get(secretHash),
    listApiKeys: (userId: string) => keysByUser.all(userId),
    revokeApiKey: (id: string, userId: string, now: string) => revokeKey.run(now, id, userId).changes > 0,
    touchApiKey: (id: string, now: string) => touchKey.run(now, id, now),

    insertUserToken: (row: {
      id: string;
      user_id: string;
      secret_hash: string;
      expires_at: string;
      quota: number | null;
      created_by: string;
      created_at: string;
    }) => insertUserToken.run(row),
    findUserToken: (secretHash: string) => userTokenByHash.get(secretHash),
    spendUserToken: (id: string) => spendUserToken.run(id).changes > 0,

    insertAccessToken: (row: { id: string; user_id: string; secret_hash: string; created_at: string }) => insertAccessToken.run(row),
    findAccessToken: (secretHash: string) => accessTokenByHash.get(secretHash),
  };
}

export type CredentialsRepo = ReturnType<typeof createCredentialsRepo>;
