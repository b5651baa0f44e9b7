import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ServiceError } from '../../../../shared/errors.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { ContextSlice } from '../context.js';
import { issueApiKey } from './api-keys.js';
import type { InputOf } from '../operation-handlers.js';

/**
 * The sign-in codes not yet used, by hash: `[{hash, user_id, expires_at, kind}]`. Served mode's
 * printed link is one at a time (a new start replaces it); each OpenID Connect sign-in adds its own,
 * so several people may sign in at once.
 */
const SETTING = 'sign_in_codes';
/** The code is 192 random bits used once within ten minutes: a plain digest keeps it out of the database. */
const hashSecret = (code: string) => createHash('sha256').update(code).digest('hex');
export const SIGN_IN_CODE_TTL_MS = 10 * 60_000;
/** The name of the API key a redeemed code gives the browser; it is listed and revoked like any key. */
export const SIGN_IN_KEY_NAME = 'Browser sign-in';
/** Pending codes kept at most: a flood of unfinished sign-ins drops the oldest rather than growing the setting without end. */
const MAX_PENDING = 200;

const StoredCode = z.object({ hash: z.string(), user_id: z.string(), expires_at: z.string(), kind: z.enum(['link', 'oidc']) });
type StoredCode = z.output<typeof StoredCode>;

/** An unreadable entry is no code at all. */
const readStored = (repos: Repositories): StoredCode[] => z.array(StoredCode).safeParse(repos.settings.getJson(SETTING)).data ?? [];

/**
 * A one-time code that signs a browser in as `userId`: served mode prints it as a link for the
 * owner (`kind` "link", replacing any earlier link), an OpenID Connect sign-in hands it to the
 * browser ("oidc"). Only its hash is stored; it lasts ten minutes from `now`.
 */
export function issueSignInCode(repos: Repositories, userId: string, now: Date, kind: StoredCode['kind'] = 'link'): { code: string; expires_at: string } {
  const code = randomBytes(24).toString('base64url');
  const expires_at = new Date(now.getTime() + SIGN_IN_CODE_TTL_MS).toISOString();
  repos.transaction(() => {
    const kept = readStored(repos).filter((c) => c.expires_at > now.toISOString() && !(kind === 'link' && c.kind === 'link'));
    repos.settings.setJson(SETTING, [...kept, { hash: hashSecret(code), user_id: userId, expires_at, kind } satisfies StoredCode].slice(-MAX_PENDING));
  });
  return { code, expires_at };
}

/**
 * Exchanges the code for a fresh API key of its user, once: the code is gone whether it worked or
 * had expired, so a link that leaked from a terminal's scrollback is worth nothing later.
 */
export function redeemSignInCode(ctx: ContextSlice<'repos' | 'now', 'credentials'>, input: InputOf<'signInCodes.redeem'>) {
  const now = ctx.now();
  // Decided and consumed in one transaction (so two browsers cannot both use it); refusals are
  // thrown after it commits, since throwing inside would roll the consumption back.
  const outcome = ctx.repos.transaction(() => {
    const all = readStored(ctx.repos);
    const hash = hashSecret(input.code);
    const stored = all.find((c) => c.hash === hash);
    if (!stored) return { refused: 'unknown' as const };
    ctx.repos.settings.setJson(SETTING, all.filter((c) => c !== stored));
    if (stored.expires_at <= now.toISOString()) return { refused: 'expired' as const };
    const user = ctx.repos.users.get(stored.user_id);
    if (!user) return { refused: 'unknown' as const };
    if (user.disabled_at) return { refused: 'disabled' as const };
    return { key: issueApiKey(ctx.repos, ctx.runtime.credentials, user.id, SIGN_IN_KEY_NAME, now.toISOString()) };
  });
  switch (outcome.refused) {
    case undefined:
      return outcome.key;
    case 'expired':
      throw new ServiceError('unauthenticated', 'This sign-in link has expired (links last 10 minutes). Restart Parley for a new link, or sign in with an API key.');
    case 'disabled':
      throw new ServiceError('forbidden', 'This account is disabled.');
    default:
      throw new ServiceError(
        'unauthenticated',
        'This sign-in link is not valid: it was already used, or a later start of Parley replaced it. Restart Parley for a new link, or sign in with an API key.',
      );
  }
}
