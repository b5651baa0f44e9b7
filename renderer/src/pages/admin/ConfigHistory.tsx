import { useState } from 'react';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { Time } from '../../ui/Time.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { SOURCE_LABELS, type ConfigState } from './config-state.js';

type Version = OutputOf<Operations['admin.config.history']>['data'][number];

export interface ConfigHistoryProps {
  current: number;
  /** The editor holds unsaved text, which a restore replaces. */
  dirty: boolean;
  onRestored: (state: ConfigState) => void;
}

/** Every version that was in force, newest first; any earlier one can be put back. */
export function ConfigHistory({ current, dirty, onRestored }: ConfigHistoryProps) {
  const history = useLoader(() => client.call('admin.config.history', {}));
  const [restoring, setRestoring] = useState<Version | null>(null);
  const restore = useAction(async (version: Version) => {
    const state = await client.call('admin.config.rollback', { version: version.version });
    setRestoring(null);
    onRestored(state);
  });

  return (
    <Section title="History" description="Every configuration that was in force. Restoring one saves it again as the newest version.">
      <Loadable state={history.state} reload={history.reload} loading="Loading the history…" failed="The history could not be loaded">
        {(list) => (
          <ol className="version-list">
            {list.data.map((version) => (
              <li key={version.version} className="version-item">
                <details>
                  <summary>
                    <span className="version-number">Version {version.version}</span>
                    <span className="muted">
                      {SOURCE_LABELS[version.source]}
                      {version.created_by ? ` by ${version.created_by.name}` : ''} · <Time iso={version.created_at} />
                    </span>
                    {version.version === current ? <span className="badge badge-success">In force</span> : null}
                  </summary>
                  <pre className="code-block version-text" tabIndex={0} aria-label={`Text of version ${version.version}`}>
                    {version.toml}
                  </pre>
                </details>
                {version.version === current ? null : (
                  <Button size="sm" onClick={() => setRestoring(version)} aria-label={`Restore version ${version.version}`}>
                    Restore
                  </Button>
                )}
              </li>
            ))}
          </ol>
        )}
      </Loadable>
      <ConfirmDialog
        open={restoring !== null}
        title={`Restore version ${restoring?.version ?? ''}?`}
        confirmLabel="Restore"
        busy={restore.busy}
        error={restore.error}
        onConfirm={() => restoring && void restore.run(restoring)}
        onCancel={() => {
          setRestoring(null);
          restore.reset();
        }}
      >
        <p>
          Its text becomes the configuration in force, saved as a new version; version {current} stays in the history.
          {dirty ? ' Your unsaved changes in the editor are discarded.' : ''}
        </p>
      </ConfirmDialog>
    </Section>
  );
}
