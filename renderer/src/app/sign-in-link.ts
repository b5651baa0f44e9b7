/** `#/sign-in/<code>`: the link served mode prints for the owner (see main/serve.ts). */
const SIGN_IN_HASH = /^#\/sign-in\/([A-Za-z0-9_-]{1,200})\/?$/;

/**
 * The one-time code of a sign-in link this page was opened with, if any, taken out of the URL
 * first (so it is neither bookmarked, kept in history, nor reused on reload); the page then shows
 * the home page.
 */
export function takeSignInCode(scope: Window = window): string | null {
  const match = SIGN_IN_HASH.exec(scope.location.hash);
  if (!match?.[1]) return null;
  scope.history.replaceState(null, '', `${scope.location.pathname}${scope.location.search}`);
  return match[1];
}

/**
 * Calls `onLink` when a sign-in link is opened in a page that is already open (pasted into its
 * address bar: only the fragment changes, so the page is not loaded again).
 */
export function onSignInLink(onLink: () => void, scope: Window = window): () => void {
  const listener = () => {
    if (SIGN_IN_HASH.test(scope.location.hash)) onLink();
  };
  scope.addEventListener('hashchange', listener);
  return () => scope.removeEventListener('hashchange', listener);
}
