import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import type { z } from 'zod';
import type { Config, OidcConfig } from '../../../../../shared/config.js';
import type { Repositories } from '../../../../db/repositories/index.js';
import { newId } from '../../ids.js';
import { desktopUserId } from '../owner.js';
import { issueSignInCode, SIGN_IN_CODE_TTL_MS } from '../sign-in-code.js';
import { mapClaims, type MappedUser } from './claims.js';

type Oidc = z.output<typeof OidcConfig>;

/** Why a sign-in ended on the sign-in page instead of signed in; the renderer says each in the user's language. */
export type OidcRefusal = 'failed' | 'off' | 'state' | 'provider_refused' | 'provider_unreachable' | 'unknown_user' | 'disabled' | 'email_taken';

export interface OidcDeps {
  repos: Repositories;
  config: () => Config;
  now: () => Date;
  /** Where PARLEY_OIDC_CLIENT_SECRET is read; the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

export const CALLBACK_PATH = '/api/auth/oidc/callback';
const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
/** Where the browser lands when it failed: the sign-in page, which reads the reason from the hash. */
export const refusedLocation = (reason: OidcRefusal) => `/#/sign-in-error/${reason}`;

const isLoopbackHttp = (issuer: string) => {
  const url = new URL(issuer);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
};

class Refused extends Error {
  constructor(readonly reason: OidcRefusal, detail?: string) {
    super(detail ?? reason);
  }
}

/** Whether `[auth.oidc]` is complete enough to sign in with, and what the sign-in page calls it. */
export function oidcSummary(config: Config): { name: string } | null {
  const oidc = config.auth.oidc;
  if (!oidc.issuer || !oidc.client_id) return null;
  return { name: oidc.name ?? new URL(oidc.issuer).host };
}

/**
 * OpenID Connect sign-in (authorization code with PKCE, state and nonce) through openid-client.
 * A sign-in under way is kept in the database, so that whichever instance the provider's redirect
 * reaches can finish it; a finished one ends like served mode's sign-in link: a one-time code the
 * renderer redeems for a "Browser sign-in" API key.
 */
export function createOidcSignIn(deps: OidcDeps) {
  // Discovery is a round trip to the provider: once per configuration, again after a failure.
  let cached: { key: string; config: Promise<client.Configuration> } | undefined;
  function providerConfig(oidc: Oidc & { issuer: string; client_id: string }): Promise<client.Configuration> {
    const key = JSON.stringify([oidc.issuer, oidc.client_id, oidc.client_secret ?? null]);
    if (cached?.key !== key) {
      // Plain http only to a provider on this machine (as OAuth allows for loopback); anywhere else https.
      const options = isLoopbackHttp(oidc.issuer) ? { execute: [client.allowInsecureRequests] } : undefined;
      const auth = oidc.client_secret ? client.ClientSecretPost(oidc.client_secret) : client.None();
      const config = client.discovery(new URL(oidc.issuer), oidc.client_id, undefined, auth, options);
      cached = { key, config };
      config.catch(() => {
        if (cached?.config === config) cached = undefined;
      });
    }
    return cached.config;
  }

  function configured(): Oidc & { issuer: string; client_id: string } {
    const oidc = deps.config().auth.oidc;
    if (!oidc.issuer || !oidc.client_id) throw new Refused('off');
    // The environment's secret wins, so a team can keep it out of parley.toml (and so out of the
    // configuration history in the database, which admins read).
    const client_secret = (deps.env ?? process.env).PARLEY_OIDC_CLIENT_SECRET || oidc.client_secret;
    return { ...oidc, issuer: oidc.issuer, client_id: oidc.client_id, client_secret };
  }

  /** Where to send the browser to start signing in; `origin` is this server's as the browser sees it. */
  async function start(origin: string): Promise<string> {
    try {
      const oidc = configured();
      const provider = await providerConfig(oidc).catch((error: unknown) => {
        throw new Refused('provider_unreachable', String(error));
      });
      const redirect_url = oidc.redirect_url ?? `${origin}${CALLBACK_PATH}`;
      const code_verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const now = deps.now();
      deps.repos.identities.startLogin(
        { state_hash: hashState(state), code_verifier, nonce, redirect_url, expires_at: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS).toISOString() },
        now.toISOString(),
      );
      return client
        .buildAuthorizationUrl(provider, {
          redirect_uri: redirect_url,
          scope: oidc.scopes.join(' '),
          code_challenge: await client.calculatePKCECodeChallenge(code_verifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        })
        .toString();
    } catch (error) {
      if (error instanceof Refused) return refusedLocation(error.reason);
      throw error;
    }
  }

  /** Finishes a sign-in from the provider's redirect (`query` as received); answers where the browser goes next. */
  async function callback(query: URLSearchParams): Promise<string> {
    try {
      const oidc = configured();
      const state = query.get('state');
      const pending = state ? deps.repos.identities.takeLogin(hashState(state)) : undefined;
      if (!state || !pending || pending.expires_at <= deps.now().toISOString()) throw new Refused('state');
      if (query.has('error')) throw new Refused('provider_refused', query.get('error_description') ?? query.get('error') ?? undefined);
      const provider = await providerConfig(oidc).catch((error: unknown) => {
        throw new Refused('provider_unreachable', String(error));
      });
      const current = new URL(pending.redirect_url);
      current.search = query.toString();
      const tokens = await client
        .authorizationCodeGrant(provider, current, { pkceCodeVerifier: pending.code_verifier, expectedState: state, expectedNonce: pending.nonce, idTokenExpected: true })
        .catch((error: unknown) => {
          throw new Refused('provider_refused', String(error));
        });
      const claims: Record<string, unknown> = { ...tokens.claims() };
      // Many providers put groups (and email) in userinfo only.
      if (claims[oidc.groups_claim] === undefined || claims.email === undefined) {
        const info = await client.fetchUserInfo(provider, tokens.access_token, String(claims.sub)).catch(() => undefined);
        if (info) for (const [k, v] of Object.entries(info)) if (claims[k] === undefined) claims[k] = v;
      }
      const userId = signInUser(oidc, mapClaims(claims, oidc));
      return `/#/sign-in/${issueSignInCode(deps.repos, userId, deps.now(), 'oidc').code}`;
    } catch (error) {
      if (error instanceof Refused) return refusedLocation(error.reason);
      throw error;
    }
  }

  /** The Parley user of this provider's user: linked before, matched by verified email, or created; role from the groups. */
  function signInUser(oidc: Oidc & { issuer: string }, mapped: MappedUser): string {
    const { repos } = deps;
    const now = deps.now().toISOString();
    return repos.transaction(() => {
      let userId = repos.identities.userOf(oidc.issuer, mapped.subject);
      if (!userId && mapped.email) {
        const existing = repos.users.getByEmail(mapped.email);
        if (existing && !mapped.email_verified) throw new Refused('email_taken');
        if (existing) {
          userId = existing.id;
          repos.identities.link(oidc.issuer, mapped.subject, userId, now);
        }
      }
      if (!userId) {
        if (!oidc.create_users) throw new Refused('unknown_user');
        userId = createUser(oidc, mapped, now);
      }
      const user = repos.users.get(userId);
      if (!user) throw new Refused('unknown_user');
      if (user.disabled_at) throw new Refused('disabled');
      // The owner keeps super admin whatever the provider says: demoting them could leave nobody to fix it.
      if (user.role !== mapped.role && user.role !== 'trial' && user.id !== desktopUserId(repos)) repos.users.update(user.id, { role: mapped.role }, now);
      return user.id;
    });
  }

  function createUser(oidc: Oidc & { issuer: string }, mapped: MappedUser, now: string): string {
    const { repos } = deps;
    const org = organizationFor(mapped.organization, now);
    const id = newId('usr');
    // Emails are unique: a provider's user without one gets an address no mailbox has.
    const email = mapped.email ?? `${mapped.subject}@${new URL(oidc.issuer).host}.invalid`;
    repos.users.insert({ id, organization_id: org.id, workspace_id: org.workspace_id, email, name: mapped.name, role: mapped.role, now });
    repos.identities.link(oidc.issuer, mapped.subject, id, now);
    return id;
  }

  function organizationFor(name: string | undefined, now: string): { id: string; workspace_id: string } {
    const { repos } = deps;
    if (name === undefined) {
      const owner = repos.users.get(desktopUserId(repos) ?? '');
      if (!owner) throw new Error('Parley has no owner yet.');
      return { id: owner.organization_id, workspace_id: owner.workspace_id };
    }
    const found = repos.identities.organizationByName(name);
    if (found) return found;
    const org = { id: newId('org'), name, workspace_id: newId('wsp'), workspace_name: 'Default', now };
    repos.users.createOrganization(org);
    return { id: org.id, workspace_id: org.workspace_id };
  }

  return { start, callback };
}

export type OidcSignIn = ReturnType<typeof createOidcSignIn>;
