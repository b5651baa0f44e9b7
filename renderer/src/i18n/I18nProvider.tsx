import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { CATALOGUES, type MessageId } from './catalogues/index.js';
import { useLocale } from './locale.js';

/** The interface's language: every string below it comes from the chosen language's catalogue, English where one is missing. */
// Each language holds every English key (test/unit/i18n/catalogue.test.ts), so the catalogue is complete.
export function I18nProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <IntlProvider locale={locale} defaultLocale="en" messages={CATALOGUES[locale] as Record<MessageId, string>}>
      {children}
    </IntlProvider>
  );
}
