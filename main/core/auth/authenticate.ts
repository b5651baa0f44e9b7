import { ServiceError } from '../../../shared/errors.js';
import { hashSecret } from '../ids.js';
import type { Caller, Context } from '../context.js';
import { isoNow } from '../context.js';

const TOKEN_SHAPE = /^(pk|ut|at)_[A-Za-z0-9_-]{8,200}$/;

/**
 * Resolves a bearer token to its caller. API keys act as the user who owns them; user tokens act as
 * the trial user they onboarded and spend one unit of quota per request; access tokens are
 * deprecated but accepted while the config allows them.
 */
export function authenticate(ctx: Context, token: string | undefined): Caller {
  if (!token) throw new ServiceError('unauthenticated', 'Send `Authorization: Bearer <token>` with an API key (pk_…) or a user token (ut_…).');
  const shape = TOKEN_SHAPE.exec(token);
  if (!shape) throw new ServiceError('unauthenticated', 'The bearer token is not a Parley token.');
  const { credentials, users } = ctx.repos;
  const hash = hashSecret(token);
  let userId: string | undefined;
  let via: Caller['via'];

  switch (shape[1]) {
    case 'pk': {
      const key = credentials.findApiKey(hash);
      if (key) credentials.touchApiKey(key.id, isoNow(ctx));
      userId = key?.user_id;
      via = 'api_key';
      break;
    }
    case 'ut': {
      const ut = credentials.findUserToken(hash);
      if (ut && ut.expires_at <= isoNow(ctx)) throw new ServiceError('unauthenticated', 'This user token has expired; ask an admin for a new one.');
      if (ut && !credentials.spendUserToken(ut.id)) throw new ServiceError('rate_limited', `This user token has used its quota of ${ut.quota} requests.`);
      userId = ut?.user_id;
      via = 'user_token';
      break;
    }
    default: {
      if (!ctx.config().auth.allow_access_tokens) {
        throw new ServiceError('unauthenticated', 'Access tokens (at_…) are turned off on this server; use an API key or a user token.');
      }
      userId = credentials.findAccessToken(hash)?.user_id;
      via = 'access_token';
    }
  }

  const user = userId ? users.get(userId) : undefined;
  if (!user) throw new ServiceError('unauthenticated', 'The bearer token is unknown or has been revoked.');
  if (user.disabled_at) throw new ServiceError('forbidden', 'This account is disabled.');
  return { user, via };
}
