import { useSyncExternalStore } from 'react';
import type { Client } from '../api/index.js';

export type Theme = 'system' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];

/** This person's choice, per browser profile (or desktop profile): stored in localStorage. */
const CHOICE_KEY = 'parley.theme';
/** The last `[ui] theme` heard from the service, so the next start paints in it before asking. */
const DEFAULT_KEY = 'parley.themeDefault';

function isTheme(value: unknown): value is Theme {
  return value === 'system' || value === 'light' || value === 'dark';
}

function read(key: string): Theme | null {
  try {
    const value = localStorage.getItem(key);
    return isTheme(value) ? value : null;
  } catch {
    return null;
  }
}

function write(key: string, value: Theme | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage disabled: the choice lasts as long as the page.
  }
}

interface ThemeState {
  /** What this person picked in Settings, or null to follow the configured default. */
  choice: Theme | null;
  /** `[ui] theme` of the configuration. */
  configured: Theme;
}

let state: ThemeState = { choice: null, configured: 'system' };
const listeners = new Set<() => void>();

function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** `light` or `dark`, as painted now. */
export function effectiveTheme(s: ThemeState = state): 'light' | 'dark' {
  const theme = s.choice ?? s.configured;
  if (theme === 'system') return systemPrefersDark() ? 'dark' : 'light';
  return theme;
}

/** Paints the page: the tokens (styles/tokens.css) switch on `data-theme` of the root element. */
function apply(): void {
  document.documentElement.dataset.theme = effectiveTheme();
}

function update(next: Partial<ThemeState>): void {
  state = { ...state, ...next };
  apply();
  for (const listener of listeners) listener();
}

/**
 * Paints the stored theme at once (before React renders, so a dark page does not flash white),
 * follows the system while the theme is `system`, then asks the service for `[ui] theme`.
 */
export function startTheme(client: Client): void {
  state = { choice: read(CHOICE_KEY), configured: read(DEFAULT_KEY) ?? 'system' };
  apply();
  if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
  void client
    .call('service.ui', {})
    .then(({ theme }) => {
      write(DEFAULT_KEY, theme);
      update({ configured: theme });
    })
    .catch(() => {
      // The service is not answering yet; the stored default stands, and the app says why elsewhere.
    });
}

/** Keeps this person's choice (null: back to the configured default) and applies it at once. */
export function chooseTheme(choice: Theme | null): void {
  write(CHOICE_KEY, choice);
  update({ choice });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The theme state for React: re-renders when a choice or the configured default changes. */
export function useTheme(): ThemeState {
  return useSyncExternalStore(subscribe, () => state);
}
