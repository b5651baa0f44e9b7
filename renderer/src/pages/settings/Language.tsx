import { useIntl } from 'react-intl';
import { connection } from '../../api/index.js';
import { LOCALES, type Locale } from '../../i18n/catalogues/index.js';
import { chooseLocale, systemLocale, useLocaleChoice } from '../../i18n/locale.js';
import { SelectField } from '../../ui/Field.js';
import { Section } from '../../ui/Page.js';

/** Each language named in itself, so that whoever reads it finds theirs whatever the screen speaks now. */
const NATIVE_NAMES: Record<Locale, string> = { en: 'English', 'zh-Hans': '简体中文', ja: '日本語', de: 'Deutsch' };

const SYSTEM = 'system';

/** The interface's language: this person's choice, kept in this browser (or on this computer), applied at once. */
export function Language() {
  const intl = useIntl();
  const choice = useLocaleChoice();
  const system = systemLocale();
  return (
    <Section title={intl.formatMessage({ id: 'app.language.title' })} description={intl.formatMessage({ id: 'app.language.description' }, { where: connection.kind })}>
      <SelectField
        label={intl.formatMessage({ id: 'app.language.title' })}
        hint={intl.formatMessage({ id: 'app.language.systemHint' })}
        fieldClassName="language-field"
        value={choice ?? SYSTEM}
        onChange={(event) => chooseLocale(LOCALES.find((l) => l === event.target.value) ?? null)}
      >
        <option value={SYSTEM}>{intl.formatMessage({ id: 'app.language.system' }, { language: NATIVE_NAMES[system] })}</option>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {NATIVE_NAMES[locale]}
          </option>
        ))}
      </SelectField>
    </Section>
  );
}
