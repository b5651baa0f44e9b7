import { useIntl } from 'react-intl';
import { SHORTCUTS } from '../../app/shortcuts.js';
import { Section } from '../../ui/Page.js';

/** The app-wide keyboard shortcuts (app/shortcuts.ts), so that they can be found. */
export function Shortcuts() {
  const intl = useIntl();
  return (
    <Section title={intl.formatMessage({ id: 'settings.shortcuts.title' })} description={intl.formatMessage({ id: 'settings.shortcuts.description' })}>
      <dl className="details">
        {Object.values(SHORTCUTS).map((shortcut) => (
          <div key={shortcut.what}>
            <dt>{intl.formatMessage({ id: shortcut.what })}</dt>
            <dd>
              <kbd>{intl.formatMessage({ id: shortcut.keys })}</kbd>
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
