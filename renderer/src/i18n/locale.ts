import { useSyncExternalStore } from 'react';
import { LOCALES, type Locale } from './catalogues/index.js';

/** The language this person chose, per browser (or desktop) profile; none means the OS/browser's. */
const CHOICE_KEY = 'parley.locale';

/** The catalogue for a BCP 47 tag: zh (any region or script) → zh-Hans, ja → ja, de → de, else none. */
export function catalogueFor(tag: string): Locale | null {
  const language = tag.toLowerCase().split(/[-_]/)[0];
  if (language === 'zh') return 'zh-Hans';
  return LOCALES.find((l) => l === language) ?? null;
}

/** The first of the browser's languages Parley speaks; English when none. */
export function systemLocale(languages: readonly string[] = navigator.languages): Locale {
  for (const tag of languages) {
    const found = catalogueFor(tag);
    if (found) return found;
  }
  return 'en';
}

function readChoice(): Locale | null {
  try {
    const value = localStorage.getItem(CHOICE_KEY);
    return LOCALES.find((l) => l === value) ?? null;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let choice: Locale | null = readChoice();

/** The language in use: the choice, else the system's. */
export function currentLocale(): Locale {
  return choice ?? systemLocale();
}

/** Sets (or, with null, forgets) this person's language; every screen re-renders in it. */
export function chooseLocale(next: Locale | null): void {
  choice = next;
  try {
    if (next === null) localStorage.removeItem(CHOICE_KEY);
    else localStorage.setItem(CHOICE_KEY, next);
  } catch {
    // Storage disabled: the choice lasts as long as the page.
  }
  document.documentElement.lang = currentLocale();
  for (const listener of listeners) listener();
}

export function useLocale(): Locale {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    currentLocale,
  );
}

/** The language choice as stored (null: follow the system), for the Settings control. */
export function useLocaleChoice(): Locale | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => choice,
  );
}
