import { chooseTheme, THEMES, useTheme, type Theme } from '../../app/theme.js';
import { connection } from '../../api/index.js';
import { Section } from '../../ui/Page.js';

const LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark', system: 'System' };
const HINTS: Record<Theme, string> = {
  light: 'Dark text on light surfaces.',
  dark: 'Light text on dark surfaces, easier on the eyes at night.',
  system: 'Follows your operating system, and changes when it does.',
};

/** The colour theme: this person's choice, kept in this browser (or on this computer), applied at once. */
export function Appearance() {
  const { choice, configured } = useTheme();
  const current = choice ?? configured;
  const where = connection.kind === 'browser' ? 'this browser' : 'this computer';
  return (
    <Section title="Appearance" description={`Your theme is kept in ${where}. Parley’s default here is ${LABELS[configured].toLowerCase()} (set by an admin in the configuration).`}>
      <fieldset className="theme-picker">
        <legend className="visually-hidden">Theme</legend>
        {THEMES.map((theme) => (
          <label key={theme} className="theme-option" data-theme-option={theme}>
            <input type="radio" name="theme" value={theme} checked={current === theme} onChange={() => chooseTheme(theme)} />
            <span className={`theme-swatch theme-swatch-${theme}`} aria-hidden="true" />
            <span className="theme-option-text">
              <span className="theme-option-label">
                {LABELS[theme]}
                {theme === configured ? <span className="theme-option-default"> · default</span> : null}
              </span>
              <span className="theme-option-hint">{HINTS[theme]}</span>
            </span>
          </label>
        ))}
      </fieldset>
    </Section>
  );
}
