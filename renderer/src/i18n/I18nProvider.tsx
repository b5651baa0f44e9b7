import type { ReactNode } from 'react';
import { RawIntlProvider } from 'react-intl';
import { intlFor } from './intl.js';
import { useLocale } from './locale.js';

/** The interface's language: every string below it comes from the chosen language's catalogue. */
// Each language holds every English key (test/unit/i18n/catalogue.test.ts), so the catalogue is complete.
// The same formatter as getIntl() hands to code outside components, so both always agree.
export function I18nProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return <RawIntlProvider value={intlFor(locale)}>{children}</RawIntlProvider>;
}
