import type { z } from 'zod';
import type { AdminUser } from '../../../../shared/operations/admin.js';
import { ServiceError } from '../../../../shared/errors.js';
import type { UserRecord } from '../../../db/repositories/users.js';
import { issueApiKey } from '../../platform/auth/api-keys.js';
import { adminUserView } from '../../platform/auth/views.js';
import type { AuthedSlice, ContextSlice } from '../../platform/context.js';
import { isoNow } from '../../platform/context.js';
import { newId, newSecret } from '../../platform/ids.js';
import { isTrial } from '../../platform/auth/roles.js';
import type { InputOf } from '../../platform/operation-handlers.js';

/** What administering users uses: the stores, the clock and the credential hasher (new keys and tokens). */
type UserAdminCtx = AuthedSlice<'repos' | 'now', 'credentials'>;

function insertUser(ctx: AuthedSlice<'repos'>, input: Pick<InputOf<'admin.users.create'>, 'email' | 'name' | 'role'>, now: string) {
  const { repos, caller } = ctx;
  if (repos.users.getByEmail(input.email)) throw new ServiceError('conflict', `A user with the email ${input.email} already exists.`);
  const id = newId('usr');
  repos.users.insert({ id, organization_id: caller.user.organization_id, workspace_id: caller.user.workspace_id, ...input, now });
  const user = repos.users.get(id);
  if (!user) throw new Error(`user ${id} vanished after insert`);
  return user;
}

/** A user as administration shows them; a trial user with their token's expiry and what is left of its quota. */
function viewWithTrial(ctx: ContextSlice<'repos' | 'now'>, user: UserRecord): z.input<typeof AdminUser> {
  const token = isTrial(user) ? ctx.repos.credentials.latestUserToken(user.id) : undefined;
  const trial = token
    ? {
        expires_at: token.expires_at,
        expired: token.expires_at <= isoNow(ctx),
        quota: token.quota,
        used: token.used,
        remaining: token.quota === null ? null : Math.max(0, token.quota - token.used),
      }
    : null;
  return { ...adminUserView(user), trial };
}

export function listUsers(ctx: AuthedSlice<'repos' | 'now'>) {
  return { data: ctx.repos.users.listByOrganization(ctx.caller.user.organization_id).map((u) => viewWithTrial(ctx, u)) };
}

export function createUser(ctx: UserAdminCtx, input: InputOf<'admin.users.create'>) {
  if (input.role === 'trial') {
    // A trial is bounded by its user token (expiry, quota); a user created here comes with an
    // unbounded API key instead.
    throw new ServiceError('invalid_argument', 'Trial users are onboarded with a user token (POST /admin/user-tokens), not created with an API key.', [
      { path: 'role', message: 'use POST /admin/user-tokens for trial users' },
    ]);
  }
  const now = isoNow(ctx);
  return ctx.repos.transaction(() => {
    const user = insertUser(ctx, input, now);
    return { user: viewWithTrial(ctx, user), api_key: issueApiKey(ctx.repos, ctx.runtime.credentials, user.id, 'First key', now) };
  });
}

export function updateUser(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'admin.users.update'>) {
  const { repos, caller } = ctx;
  const target = repos.users.get(input.id);
  if (!target || target.organization_id !== caller.user.organization_id) throw new ServiceError('not_found', `No user ${input.id}.`);
  if (target.id === caller.user.id && ((input.role && input.role !== 'super_admin') || input.disabled)) {
    throw new ServiceError('conflict', 'You cannot demote or disable yourself; ask another super admin.');
  }
  repos.users.update(input.id, input, isoNow(ctx));
  const updated = repos.users.get(input.id);
  if (!updated) throw new ServiceError('not_found', `No user ${input.id}.`);
  return viewWithTrial(ctx, updated);
}

/**
 * Ends a trial at once (a token shared too widely, a trial that should stop early): every token of
 * the user expires now, and so does each credential a trial user's tokens bound (authenticate.ts).
 */
export function endTrial(ctx: AuthedSlice<'repos' | 'now'>, input: InputOf<'admin.users.trial.end'>) {
  const target = ctx.repos.users.get(input.id);
  if (!target || target.organization_id !== ctx.caller.user.organization_id) throw new ServiceError('not_found', `No user ${input.id}.`);
  if (!isTrial(target)) throw new ServiceError('conflict', `${target.email} is not a trial user; disable them instead.`);
  ctx.repos.credentials.expireUserTokens(target.id, isoNow(ctx));
  return viewWithTrial(ctx, target);
}

export function createUserToken(ctx: UserAdminCtx, input: InputOf<'admin.userTokens.create'>) {
  const now = ctx.now();
  const nowIso = now.toISOString();
  const expiresAt = new Date(now.getTime() + input.expires_in * 1000).toISOString();
  return ctx.repos.transaction(() => {
    const email = input.email ?? `trial-${newId('t').slice(2, 10).toLowerCase()}@trial.local`;
    const user = insertUser(ctx, { email, name: email.split('@')[0] ?? 'Trial user', role: 'trial' }, nowIso);
    const token = newSecret('ut');
    ctx.repos.credentials.insertUserToken({
      id: newId('utk'),
      user_id: user.id,
      secret_hash: ctx.runtime.credentials.hash(token),
      hash_kind: 'hmac_sha256',
      expires_at: expiresAt,
      quota: input.quota ?? null,
      created_by: ctx.caller.user.id,
      created_at: nowIso,
    });
    return { token, expires_at: expiresAt, quota: input.quota ?? null, user: viewWithTrial(ctx, user) };
  });
}
