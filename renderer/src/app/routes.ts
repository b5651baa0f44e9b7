import { useSyncExternalStore } from 'react';
import type { MessageId } from '../i18n/catalogues/index.js';

export type RouteId = 'chat' | 'datasets' | 'compare' | 'settings' | 'admin';

export interface RouteInfo {
  id: RouteId;
  /** The link's text in the navigation. */
  labelId: MessageId;
  /** Only super admins see the link; everyone else who opens the page is told they may not. */
  superAdminOnly?: boolean;
}

export const ROUTES: readonly RouteInfo[] = [
  { id: 'chat', labelId: 'app.nav.chat' },
  { id: 'datasets', labelId: 'app.nav.datasets' },
  { id: 'compare', labelId: 'app.nav.compare' },
  { id: 'settings', labelId: 'app.nav.settings' },
  { id: 'admin', labelId: 'app.nav.admin', superAdminOnly: true },
];

export const DEFAULT_ROUTE: RouteId = 'chat';

export function hrefOf(id: RouteId): string {
  return `#/${id}`;
}

/** `#/settings` → `settings`; an empty hash is the default page; anything else is not found (null). */
export function parseHash(hash: string): RouteId | null {
  const path = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  if (path === '') return DEFAULT_ROUTE;
  return ROUTES.find((r) => r.id === path)?.id ?? null;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

/**
 * The current page from `location.hash`. Hash routing works the same from a file:// URL in
 * Electron and from the server in served mode, with no server-side routes.
 */
export function useHashRoute(): { route: RouteId | null; hash: string } {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return { route: parseHash(hash), hash };
}
