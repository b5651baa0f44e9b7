import { useSyncExternalStore } from 'react';

export type RouteId = 'chat' | 'datasets' | 'compare' | 'settings' | 'admin';

export interface RouteInfo {
  id: RouteId;
  label: string;
  /** Only super admins see the link; everyone else who opens the page is told they may not. */
  superAdminOnly?: boolean;
}

export const ROUTES: readonly RouteInfo[] = [
  { id: 'chat', label: 'Chat' },
  { id: 'datasets', label: 'Datasets' },
  { id: 'compare', label: 'Compare' },
  { id: 'settings', label: 'Settings' },
  { id: 'admin', label: 'Admin', superAdminOnly: true },
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
