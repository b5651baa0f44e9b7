import { ServiceError } from '../../../shared/errors.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { AuthedContext } from '../context.js';
import { isoNow } from '../context.js';
import { hashSecret, newId, newSecret, secretPrefix } from '../ids.js';
import { apiKeyView } from './views.js';

/** Stores a key for `userId`; `secret` is given when seeding a known key (PARLEY_ADMIN_API_KEY). */
export function issueApiKey(repos: Repositories, userId: string, name: string, now: string, secret = newSecret('pk')) {
  const row = { id: newId('key'), user_id: userId, name, prefix: secretPrefix(secret), secret_hash: hashSecret(secret), created_at: now };
  repos.credentials.insertApiKey(row);
  return { ...apiKeyView({ ...row, last_used_at: null }), key: secret };
}

export function createApiKey(ctx: AuthedContext, input: { name: string }) {
  return issueApiKey(ctx.repos, ctx.caller.user.id, input.name, isoNow(ctx));
}

export function listApiKeys(ctx: AuthedContext) {
  return { data: ctx.repos.credentials.listApiKeys(ctx.caller.user.id).map(apiKeyView) };
}

export function deleteApiKey(ctx: AuthedContext, input: { id: string }): null {
  if (!ctx.repos.credentials.revokeApiKey(input.id, ctx.caller.user.id, isoNow(ctx))) {
    throw new ServiceError('not_found', `No API key ${input.id} among yours.`);
  }
  return null;
}
