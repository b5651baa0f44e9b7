import { SHORTCUTS } from '../../app/shortcuts.js';
import { Section } from '../../ui/Page.js';

/** The app-wide keyboard shortcuts (app/shortcuts.ts), so that they can be found. */
export function Shortcuts() {
  return (
    <Section title="Keyboard shortcuts" description="They work on every page. After a page opens, Tab first reaches “Skip to message box” and “Skip to content”.">
      <dl className="details">
        {Object.values(SHORTCUTS).map((shortcut) => (
          <div key={shortcut.what}>
            <dt>{shortcut.what}</dt>
            <dd>
              <kbd>{shortcut.label}</kbd>
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
