import { ServiceError } from '../../../../shared/errors.js';
import type { HashKind } from '../../../db/repositories/credentials.js';
import type { Caller, ContextSlice } from '../context.js';
import { isoNow } from '../context.js';
import { legacySha256 } from './credential-hash.js';
import { isTrial } from './roles.js';

const TOKEN_SHAPE = /^(pk|ut|at)_[A-Za-z0-9_-]{8,200}$/;

/**
 * Finds a credential row by its keyed hash; failing that, by the bare SHA-256 rows from before
 * migration 150 had, and then rehashes that row so the old form is used once per credential.
 */
function lookUp<T extends { id: string }>(
  ctx: ContextSlice<'repos', 'credentials'>,
  table: 'api_keys' | 'user_tokens' | 'access_tokens',
  token: string,
  find: (hash: string, kind: HashKind) => T | undefined,
): T | undefined {
  const keyed = ctx.runtime.credentials.hash(token);
  const found = find(keyed, 'hmac_sha256');
  if (found) return found;
  const legacy = find(legacySha256(token), 'sha256');
  if (legacy) ctx.repos.credentials.rehash(table, legacy.id, keyed);
  return legacy;
}

/**
 * Resolves a bearer token to its caller. API keys act as the user who owns them; user tokens act as
 * the trial user they onboarded. A trial user's every credential is bound by their user token:
 * nothing they hold outlives its expiry, and model calls spend its quota (auth/quota.ts) — reading
 * pages spends nothing. Access tokens are deprecated but accepted while the config allows them.
 */
export function authenticate(ctx: ContextSlice<'repos' | 'config' | 'now', 'credentials'>, token: string | undefined): Caller {
  if (!token) throw new ServiceError('unauthenticated', 'Send `Authorization: Bearer <token>` with an API key (pk_…) or a user token (ut_…).');
  const shape = TOKEN_SHAPE.exec(token);
  if (!shape) throw new ServiceError('unauthenticated', 'The bearer token is not a Parley token.');
  const { credentials, users } = ctx.repos;
  const now = isoNow(ctx);
  let userId: string | undefined;
  let via: Caller['via'];
  let trialTokenId: string | undefined;

  switch (shape[1]) {
    case 'pk': {
      const key = lookUp(ctx, 'api_keys', token, credentials.findApiKey);
      if (key) credentials.touchApiKey(key.id, now);
      userId = key?.user_id;
      via = 'api_key';
      break;
    }
    case 'ut': {
      const ut = lookUp(ctx, 'user_tokens', token, credentials.findUserToken);
      if (ut && ut.expires_at <= now) throw new ServiceError('unauthenticated', 'This user token has expired; ask an admin for a new one.');
      userId = ut?.user_id;
      trialTokenId = ut?.id;
      via = 'user_token';
      break;
    }
    default: {
      if (!ctx.config().auth.allow_access_tokens) {
        throw new ServiceError('unauthenticated', 'Access tokens (at_…) are turned off on this server; use an API key or a user token.');
      }
      userId = lookUp(ctx, 'access_tokens', token, credentials.findAccessToken)?.user_id;
      via = 'access_token';
    }
  }

  const user = userId ? users.get(userId) : undefined;
  if (!user) throw new ServiceError('unauthenticated', 'The bearer token is unknown or has been revoked.');
  if (user.disabled_at) throw new ServiceError('forbidden', 'This account is disabled.');
  if (isTrial(user) && trialTokenId === undefined) {
    // A key a trial user got some other way (minted before trial users were refused keys, or kept
    // from before a demotion) works only while their trial does, and spends the same quota.
    const bound = credentials.latestUserToken(user.id);
    if (!bound || bound.expires_at <= now) throw new ServiceError('unauthenticated', 'This trial has ended; ask an admin for a new user token.');
    trialTokenId = bound.id;
  }
  return trialTokenId === undefined ? { user, via } : { user, via, trialTokenId };
}
