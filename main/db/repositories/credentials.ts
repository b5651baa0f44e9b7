import type { z } from 'zod';
import type { ApiKey } from '../../../shared/operations/identity.js';
import type { SqlDb as Db } from '../sql.js';

export type HashKind = 'sha256' | 'hmac_sha256';

/** An API key as stored (its secret only as a hash, never read back): the API's fields and its user. */
export type ApiKeyRecord = z.output<typeof ApiKey> & { user_id: string };

export interface UserTokenRecord {
  id: string;
  user_id: string;
  expires_at: string;
  quota: number | null;
  used: number;
}

type Table = 'api_keys' | 'user_tokens' | 'access_tokens';

/**
 * API keys, trial user tokens and legacy access tokens: every secret stored only as a hash, keyed
 * (`hmac_sha256`) or, for rows from before migration 150, bare (`sha256`) until first use.
 */
export function createCredentialsRepo(db: Db) {
  const insertKey = db.prepare(
    `INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, hash_kind, created_at)
     VALUES (@id, @user_id, @name, @prefix, @secret_hash, @hash_kind, @created_at)`,
  );
  const keyByHash = db.prepare<[string, HashKind], ApiKeyRecord>(
    'SELECT id, user_id, name, prefix, created_at, last_used_at FROM api_keys WHERE secret_hash = ? AND hash_kind = ? AND revoked_at IS NULL',
  );
  const keysByUser = db.prepare<[string], ApiKeyRecord>(
    'SELECT id, user_id, name, prefix, created_at, last_used_at FROM api_keys WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at DESC, id DESC',
  );
  const revokeKey = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL');
  // Minute resolution: a busy client must not turn every request into a write.
  const touchKey = db.prepare(
    'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)',
  );

  const insertUserToken = db.prepare(
    `INSERT INTO user_tokens (id, user_id, secret_hash, hash_kind, expires_at, quota, created_by, created_at)
     VALUES (@id, @user_id, @secret_hash, @hash_kind, @expires_at, @quota, @created_by, @created_at)`,
  );
  const userTokenByHash = db.prepare<[string, HashKind], UserTokenRecord>(
    'SELECT id, user_id, expires_at, quota, used FROM user_tokens WHERE secret_hash = ? AND hash_kind = ?',
  );
  const userTokenById = db.prepare<[string], UserTokenRecord>('SELECT id, user_id, expires_at, quota, used FROM user_tokens WHERE id = ?');
  // The token that bounds a trial user: the one that expires last (an admin may have issued more).
  const latestUserToken = db.prepare<[string], UserTokenRecord>(
    'SELECT id, user_id, expires_at, quota, used FROM user_tokens WHERE user_id = ? ORDER BY expires_at DESC, created_at DESC LIMIT 1',
  );
  // Ends a trial: its tokens expire now (a token that ended earlier keeps its own end).
  const expireUserTokens = db.prepare('UPDATE user_tokens SET expires_at = @now WHERE user_id = @user_id AND expires_at > @now');
  // One statement checks and spends a unit of quota, so two concurrent calls cannot both pass.
  const spendUserToken = db.prepare('UPDATE user_tokens SET used = used + 1 WHERE id = ? AND (quota IS NULL OR used < quota)');

  const insertAccessToken = db.prepare(
    'INSERT INTO access_tokens (id, user_id, secret_hash, hash_kind, created_at) VALUES (@id, @user_id, @secret_hash, @hash_kind, @created_at)',
  );
  const accessTokenByHash = db.prepare<[string, HashKind], { id: string; user_id: string }>(
    'SELECT id, user_id FROM access_tokens WHERE secret_hash = ? AND hash_kind = ? AND revoked_at IS NULL',
  );

  const rehash = Object.fromEntries(
    (['api_keys', 'user_tokens', 'access_tokens'] as const).map((table) => [
      table,
      db.prepare(`UPDATE ${table} SET secret_hash = ?, hash_kind = 'hmac_sha256' WHERE id = ? AND hash_kind = 'sha256'`),
    ]),
  ) as Record<Table, ReturnType<typeof db.prepare<[string, string]>>>;

  const reads = {
    findApiKey: (secretHash: string, kind: HashKind) => keyByHash.get(secretHash, kind),
    listApiKeys: (userId: string) => keysByUser.all(userId),
    findUserToken: (secretHash: string, kind: HashKind) => userTokenByHash.get(secretHash, kind),
    getUserToken: (id: string) => userTokenById.get(id),
    latestUserToken: (userId: string) => latestUserToken.get(userId),
    findAccessToken: (secretHash: string, kind: HashKind) => accessTokenByHash.get(secretHash, kind),
  };
  const writes = {
    insertApiKey: (row: Omit<ApiKeyRecord, 'last_used_at'> & { secret_hash: string; hash_kind: HashKind }) => insertKey.run(row),
    revokeApiKey: (id: string, userId: string, now: string) => revokeKey.run(now, id, userId).changes > 0,
    touchApiKey: (id: string, now: string) => touchKey.run(now, id, new Date(Date.parse(now) - 60_000).toISOString()),

    insertUserToken: (row: {
      id: string;
      user_id: string;
      secret_hash: string;
      hash_kind: HashKind;
      expires_at: string;
      quota: number | null;
      created_by: string;
      created_at: string;
    }) => insertUserToken.run(row),
    spendUserToken: (id: string) => spendUserToken.run(id).changes > 0,
    expireUserTokens: (userId: string, now: string) => expireUserTokens.run({ user_id: userId, now }).changes,

    insertAccessToken: (row: { id: string; user_id: string; secret_hash: string; hash_kind: HashKind; created_at: string }) => insertAccessToken.run(row),

    /** Replaces a legacy bare hash by the keyed one, once its secret has been presented and matched. */
    rehash: (table: Table, id: string, keyedHash: string) => rehash[table].run(keyedHash, id).changes > 0,
  };
  return { ...reads, ...writes };
}

export type CredentialsRepo = ReturnType<typeof createCredentialsRepo>;
