import { useId } from 'react';
import { useIntl } from 'react-intl';
import { chooseTheme, THEMES, useTheme, type Theme } from '../../app/theme.js';
import { connection } from '../../api/index.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { Section } from '../../ui/Page.js';

const LABELS = { light: 'settings.appearance.theme.light', dark: 'settings.appearance.theme.dark', system: 'settings.appearance.theme.system' } as const satisfies Record<Theme, MessageId>;
const HINTS = { light: 'settings.appearance.hint.light', dark: 'settings.appearance.hint.dark', system: 'settings.appearance.hint.system' } as const satisfies Record<Theme, MessageId>;

/** The colour theme: this person's choice, kept in this browser (or on this computer), applied at once. */
export function Appearance() {
  const { choice, configured } = useTheme();
  const current = choice ?? configured;
  const hintId = useId();
  const intl = useIntl();
  const description = intl.formatMessage({ id: connection.kind === 'browser' ? 'settings.appearance.descriptionBrowser' : 'settings.appearance.descriptionComputer' });
  return (
    <Section title={intl.formatMessage({ id: 'settings.appearance.title' })} description={description}>
      <fieldset className="theme-picker">
        <legend className="visually-hidden">{intl.formatMessage({ id: 'settings.appearance.legend' })}</legend>
        {THEMES.map((theme) => (
          <div key={theme} className="theme-option" data-theme-option={theme}>
            <span className={`theme-swatch theme-swatch-${theme}`} aria-hidden="true" />
            <span className="theme-option-text">
              {/* The label covers the whole card (CSS), so a click anywhere on it picks the theme. */}
              <label className="theme-option-label">
                <input type="radio" name="theme" value={theme} checked={current === theme} onChange={() => chooseTheme(theme)} aria-describedby={`${hintId}-${theme}`} />
                {intl.formatMessage({ id: LABELS[theme] })}
                {theme === configured ? <span className="theme-option-default">{intl.formatMessage({ id: 'settings.appearance.default' })}</span> : null}
              </label>
              <span className="theme-option-hint" id={`${hintId}-${theme}`}>
                {intl.formatMessage({ id: HINTS[theme] })}
              </span>
            </span>
          </div>
        ))}
      </fieldset>
    </Section>
  );
}
