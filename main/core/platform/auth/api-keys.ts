import { ServiceError } from '../../../../shared/errors.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { UserRecord } from '../../../db/repositories/users.js';
import type { AuthedSlice } from '../context.js';
import { isoNow } from '../context.js';
import { newId, newSecret, secretPrefix } from '../ids.js';
import type { CredentialHasher } from '../ports/credentials.js';
import { isTrial } from './roles.js';
import type { InputOf } from '../operation-handlers.js';

/** Stores a key for `userId`; `secret` is given when seeding a known key (PARLEY_ADMIN_API_KEY). */
export function issueApiKey(repos: Repositories, hasher: CredentialHasher, userId: string, name: string, now: string, secret = newSecret('pk')) {
  const row = { id: newId('key'), user_id: userId, name, prefix: secretPrefix(secret), secret_hash: hasher.hash(secret), hash_kind: 'hmac_sha256' as const, created_at: now };
  repos.credentials.insertApiKey(row);
  return { id: row.id, name, prefix: row.prefix, created_at: now, last_used_at: null, key: secret };
}

/**
 * Trial users hold a user token and nothing else: a key would outlive its expiry and escape its
 * quota. They are refused keys (403), whoever asks.
 */
function refuseTrial(user: UserRecord, whose: 'yours' | 'theirs'): void {
  if (!isTrial(user)) return;
  throw new ServiceError(
    'forbidden',
    whose === 'yours'
      ? 'Trial users cannot create API keys; your user token is your credential.'
      : 'Trial users cannot hold API keys: their user token bounds what they do. Change their role first.',
  );
}

export function createApiKey(ctx: AuthedSlice<'repos' | 'now', 'credentials'>, input: InputOf<'apiKeys.create'>) {
  refuseTrial(ctx.caller.user, 'yours');
  return issueApiKey(ctx.repos, ctx.runtime.credentials, ctx.caller.user.id, input.name, isoNow(ctx));
}

export function listApiKeys(ctx: AuthedSlice<'repos'>) {
  return { data: ctx.repos.credentials.listApiKeys(ctx.caller.user.id) };
}

export function deleteApiKey(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'apiKeys.delete'>): null {
  if (!ctx.repos.credentials.revokeApiKey(input.id, ctx.caller.user.id, isoNow(ctx))) {
    throw new ServiceError('not_found', `No API key ${input.id} among yours.`);
  }
  return null;
}

/** A user of the caller's organization, or not_found (another organization's users do not exist here). */
export function orgUser(ctx: AuthedSlice<'repos'>, id: string): UserRecord {
  const user = ctx.repos.users.get(id);
  if (!user || user.organization_id !== ctx.caller.user.organization_id) throw new ServiceError('not_found', `No user ${id}.`);
  return user;
}

/** Administration: any user's keys (not revoked), newest first. */
export function listUserApiKeys(ctx: AuthedSlice<'repos'>, input: InputOf<'admin.users.apiKeys.list'>) {
  const user = orgUser(ctx, input.id);
  return { data: ctx.repos.credentials.listApiKeys(user.id) };
}

/** Administration: a new key for a user, shown once (e.g. one who lost theirs). */
export function createUserApiKey(ctx: AuthedSlice<'repos' | 'now', 'credentials'>, input: InputOf<'admin.users.apiKeys.create'>) {
  const user = orgUser(ctx, input.id);
  refuseTrial(user, 'theirs');
  return issueApiKey(ctx.repos, ctx.runtime.credentials, user.id, input.name, isoNow(ctx));
}

/** Administration: revokes one of a user's keys at once. */
export function deleteUserApiKey(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'admin.users.apiKeys.delete'>): null {
  const user = orgUser(ctx, input.id);
  if (!ctx.repos.credentials.revokeApiKey(input.key_id, user.id, isoNow(ctx))) {
    throw new ServiceError('not_found', `No API key ${input.key_id} of user ${user.id}.`);
  }
  return null;
}
