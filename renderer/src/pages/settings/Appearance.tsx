import { useId } from 'react';
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
  const hintId = useId();
  const where = connection.kind === 'browser' ? 'this browser' : 'this computer';
  return (
    <Section title="Appearance" description={`Your choice is kept in ${where} and applies at once. Marked “default”: what Parley shows to whoever has not chosen ([ui] theme in the configuration).`}>
      <fieldset className="theme-picker">
        <legend className="visually-hidden">Theme</legend>
        {THEMES.map((theme) => (
          <div key={theme} className="theme-option" data-theme-option={theme}>
            <span className={`theme-swatch theme-swatch-${theme}`} aria-hidden="true" />
            <span className="theme-option-text">
              {/* The label covers the whole card (CSS), so a click anywhere on it picks the theme. */}
              <label className="theme-option-label">
                <input type="radio" name="theme" value={theme} checked={current === theme} onChange={() => chooseTheme(theme)} aria-describedby={`${hintId}-${theme}`} />
                {LABELS[theme]}
                {theme === configured ? <span className="theme-option-default">· default</span> : null}
              </label>
              <span className="theme-option-hint" id={`${hintId}-${theme}`}>
                {HINTS[theme]}
              </span>
            </span>
          </div>
        ))}
      </fieldset>
    </Section>
  );
}
