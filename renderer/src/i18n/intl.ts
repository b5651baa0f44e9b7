import { createIntl, createIntlCache, type IntlShape } from 'react-intl';
import { CATALOGUES, type Locale, type MessageId } from './catalogues/index.js';
import { currentLocale } from './locale.js';

const cache = createIntlCache();
const made = new Map<Locale, IntlShape>();

/** The formatter of one language: its catalogue, its numbers and dates. One per language, made once. */
export function intlFor(locale: Locale): IntlShape {
  let intl = made.get(locale);
  if (!intl) {
    intl = createIntl({ locale, defaultLocale: 'en', messages: CATALOGUES[locale] as Record<MessageId, string> }, cache);
    made.set(locale, intl);
  }
  return intl;
}

/**
 * The formatter of the language in use, for code that runs outside a component (a store, a toast
 * raised from a module). Components use `useIntl()`, which re-renders them when the language changes.
 */
export function getIntl(): IntlShape {
  return intlFor(currentLocale());
}
