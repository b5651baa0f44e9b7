import { useEffect, useState } from 'react';
import { client } from '../api/index.js';

/** Why a sign-in through the identity provider ended back here (main/core/platform/auth/oidc/flow.ts). */
export const OIDC_REFUSALS = ['failed', 'off', 'state', 'provider_refused', 'provider_unreachable', 'unknown_user', 'disabled', 'email_taken'] as const;
export type OidcRefusal = (typeof OIDC_REFUSALS)[number];

/** `#/sign-in-error/<reason>`: where the server sends the browser when signing in through the provider failed. */
const ERROR_HASH = /^#\/sign-in-error\/([a-z_]{1,40})\/?$/;

const isRefusal = (value: string): value is OidcRefusal => (OIDC_REFUSALS as readonly string[]).includes(value);

/** The reason a provider sign-in failed, if this page was opened with one, taken out of the URL (a reload does not show it again). */
export function takeOidcRefusal(scope: Window = window): OidcRefusal | null {
  const match = ERROR_HASH.exec(scope.location.hash);
  if (!match?.[1]) return null;
  scope.history.replaceState(null, '', `${scope.location.pathname}${scope.location.search}`);
  return isRefusal(match[1]) ? match[1] : 'failed';
}

/** The identity provider this server offers (`[auth.oidc]`), or null: asked without a token, once per page. */
export function useOidcProvider(): { name: string; start_url: string } | null {
  const [provider, setProvider] = useState<{ name: string; start_url: string } | null>(null);
  useEffect(() => {
    let live = true;
    client
      .call('service.ui', {})
      .then(({ oidc }) => {
        if (live) setProvider(oidc);
      })
      .catch(() => {
        // Not answering: the API key form is still there.
      });
    return () => {
      live = false;
    };
  }, []);
  return provider;
}
