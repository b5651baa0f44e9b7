import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  const history = useLoader(() => client.call('admin.config.history', {}));
  const [restoring, setRestoring] = useState<Version | null>(null);
  const restore = useAction(async (version: Version) => {
    const state = await client.call('admin.config.rollback', { version: version.version });
    setRestoring(null);
    onRestored(state);
  });

  return (
    <Section title={intl.formatMessage({ id: 'admin.configHistory.title' })} description={intl.formatMessage({ id: 'admin.configHistory.description' })}>
      <Loadable
        state={history.state}
        reload={history.reload}
        loading={intl.formatMessage({ id: 'admin.configHistory.loading' })}
        failed={intl.formatMessage({ id: 'admin.configHistory.loadFailed' })}
      >
        {(list) => (
          <ol className="version-list">
            {list.data.map((version) => (
              <li key={version.version} className="version-item">
                <details>
                  <summary>
                    <span className="version-number">
                      <FormattedMessage id="admin.configHistory.version" values={{ version: String(version.version) }} />
                    </span>
                    <span className="muted">
                      <FormattedMessage
                        id={version.created_by ? 'admin.configHistory.sourceBy' : 'admin.configHistory.source'}
                        values={{
                          source: intl.formatMessage({ id: SOURCE_LABELS[version.source] }),
                          name: version.created_by?.name,
                          time: <Time iso={version.created_at} />,
                        }}
                      />
                    </span>
                    {version.version === current ? (
                      <span className="badge badge-success">
                        <FormattedMessage id="admin.configHistory.inForce" />
                      </span>
                    ) : null}
                  </summary>
                  <pre
                    className="code-block version-text"
                    tabIndex={0}
                    aria-label={intl.formatMessage({ id: 'admin.configHistory.versionText' }, { version: String(version.version) })}
                  >
                    {version.toml}
                  </pre>
                </details>
                {version.version === current ? null : (
                  <Button
                    size="sm"
                    onClick={() => setRestoring(version)}
                    aria-label={intl.formatMessage({ id: 'admin.configHistory.restoreVersion' }, { version: String(version.version) })}
                  >
                    <FormattedMessage id="admin.configHistory.restore" />
                  </Button>
                )}
              </li>
            ))}
          </ol>
        )}
      </Loadable>
      <ConfirmDialog
        open={restoring !== null}
        title={intl.formatMessage({ id: 'admin.configHistory.confirmTitle' }, { version: String(restoring?.version ?? '') })}
        confirmLabel={intl.formatMessage({ id: 'admin.configHistory.restore' })}
        busy={restore.busy}
        error={restore.error}
        onConfirm={() => restoring && void restore.run(restoring)}
        onCancel={() => {
          setRestoring(null);
          restore.reset();
        }}
      >
        <p>
          <FormattedMessage id={dirty ? 'admin.configHistory.confirmBodyDirty' : 'admin.configHistory.confirmBody'} values={{ current: String(current) }} />
        </p>
      </ConfirmDialog>
    </Section>
  );
}
