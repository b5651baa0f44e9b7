import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Model } from '../../../../shared/operations/models.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { PlusIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { useLoader } from '../../ui/useLoader.js';
import { ModelForm } from './ModelForm.js';
import { errorText } from '../../ui/error-text.js';
import { useAction } from '../../ui/useAction.js';
import { ModelTestResult, type TestOutcome } from './ModelTestResult.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { hidden } from './rich.js';

const PROVIDERS = {
  extractive: 'settings.models.provider.extractive',
  openai_compatible: 'settings.models.provider.openaiCompatible',
  anthropic: 'settings.models.provider.anthropic',
  llama_cpp: 'settings.models.provider.llamaCpp',
} as const satisfies Record<Model['provider'], MessageId>;

const KINDS = { builtin: 'settings.models.kind.builtin', third_party: 'settings.models.kind.thirdParty', fine_tuned: 'settings.models.kind.fineTuned' } as const satisfies Record<Model['kind'], MessageId>;

const STATUS_BADGE: Record<Model['status'], string> = { available: 'badge badge-success', degraded: 'badge', unavailable: 'badge badge-danger' };
const STATUS_LABEL = {
  available: 'settings.models.status.available',
  degraded: 'settings.models.status.degraded',
  unavailable: 'settings.models.status.unavailable',
} as const satisfies Record<Model['status'], MessageId>;

/** Every model that can answer; admins add OpenAI-compatible and Anthropic endpoints, edit, test and remove them. */
export function Models({ isAdmin, onChanged }: { isAdmin: boolean; onChanged: () => void }) {
  const intl = useIntl();
  const models = useLoader(() => client.call('models.list', {}));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Model | null>(null);
  const [tests, setTests] = useState<Record<string, TestOutcome | 'running'>>({});
  const [removing, setRemoving] = useState<Model | null>(null);

  async function test(model: Model) {
    setTests((t) => ({ ...t, [model.id]: 'running' }));
    try {
      const outcome = await client.call('models.test', { id: model.id });
      setTests((t) => ({ ...t, [model.id]: outcome }));
      // The outcome is the model's health now: a failed test takes it out of routing, and its status says so.
      models.reload();
    } catch (e) {
      setTests((t) => ({ ...t, [model.id]: { ok: false, latency_ms: 0, detail: errorText(e) } }));
    }
  }

  const remove = useAction(async (model: Model) => {
    await client.call('models.delete', { id: model.id });
    setRemoving(null);
    models.reload();
    onChanged();
  });

  return (
    <Section
      title={intl.formatMessage({ id: 'settings.models.title' })}
      description={intl.formatMessage({ id: 'settings.models.description' })}
      actions={
        isAdmin && !adding && !editing ? (
          <Button
            icon={<PlusIcon />}
            onClick={() => {
              setEditing(null);
              setAdding(true);
            }}
          >
            <FormattedMessage id="settings.models.addButton" />
          </Button>
        ) : null
      }
    >
      {!isAdmin ? (
        <Alert tone="info">
          <FormattedMessage id="settings.models.adminsOnly" />
        </Alert>
      ) : null}
      {adding || editing ? (
        <ModelForm
          key={editing?.id ?? 'new'}
          model={editing ?? undefined}
          onSaved={() => {
            setAdding(false);
            setEditing(null);
            // A changed endpoint is another thing to call: the old test result no longer applies.
            if (editing) setTests(({ [editing.id]: _old, ...rest }) => rest);
            models.reload();
            onChanged();
          }}
          onCancel={() => {
            setAdding(false);
            setEditing(null);
          }}
          onAdded={() => {
            models.reload();
            onChanged();
          }}
        />
      ) : null}
      <Loadable state={models.state} reload={models.reload} loading={intl.formatMessage({ id: 'settings.models.loading' })} failed={intl.formatMessage({ id: 'settings.models.loadFailed' })}>
        {(list) => (
          <DataTable
            caption={intl.formatMessage({ id: 'settings.models.caption' })}
            /* Local GGUF files have their own section (LocalModels): state, size, load/unload. */
            rows={list.data.filter((m) => m.provider !== 'llama_cpp')}
            rowKey={(m) => m.id}
            empty={
              <TableEmpty>
                <FormattedMessage id="settings.models.empty" />
              </TableEmpty>
            }
            name={{
              header: intl.formatMessage({ id: 'settings.models.column.name' }),
              wrap: true,
              cell: (m) => (
                <>
                  <span className="model-name-line">
                    {m.name}
                    {/* Messages with images are routed only to models marked so (the model form's checkbox). */}
                    {m.capabilities.vision ? <span className="badge badge-accent">{intl.formatMessage({ id: 'settings.models.readsImages' })}</span> : null}
                  </span>
                  <span className="cell-secondary model-id">{m.endpoint_url ? intl.formatMessage({ id: 'settings.models.modelAt' }, { model: m.model, url: m.endpoint_url }) : m.model}</span>
                </>
              ),
            }}
            columns={[
              { id: 'provider', header: intl.formatMessage({ id: 'settings.models.column.provider' }), narrow: 'under', cell: (m) => intl.formatMessage({ id: PROVIDERS[m.provider] }) },
              { id: 'kind', header: intl.formatMessage({ id: 'settings.models.column.kind' }), narrow: 'hide', cell: (m) => intl.formatMessage({ id: KINDS[m.kind] }) },
              {
                id: 'status',
                header: intl.formatMessage({ id: 'settings.models.column.status' }),
                wrap: true,
                cell: (m) => {
                  const outcome = tests[m.id];
                  return (
                    <>
                      {m.checked === false && m.status === 'available' ? (
                        // Nothing has reached the endpoint yet: "Available" would only mean nothing failed so far.
                        <span className="badge" title={intl.formatMessage({ id: 'settings.models.status.uncheckedHint' })}>
                          {intl.formatMessage({ id: 'settings.models.status.unchecked' })}
                        </span>
                      ) : (
                        <span className={STATUS_BADGE[m.status]}>{intl.formatMessage({ id: STATUS_LABEL[m.status] })}</span>
                      )}
                      {outcome && outcome !== 'running' ? (
                        <div>
                          <ModelTestResult outcome={outcome} />
                        </div>
                      ) : null}
                    </>
                  );
                },
              },
            ]}
            actions={
              isAdmin
                ? (m) => (
                    <>
                      <Button size="sm" variant="ghost" busy={tests[m.id] === 'running'} onClick={() => void test(m)}>
                        <FormattedMessage id="settings.models.test" values={{ name: m.name, hidden }} />
                      </Button>
                      {m.kind !== 'builtin' ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          onClick={() => {
                            setAdding(false);
                            setEditing(m);
                          }}
                        >
                          <FormattedMessage id="settings.models.edit" values={{ name: m.name, hidden }} />
                        </Button>
                      ) : null}
                      {m.kind !== 'builtin' ? (
                        <Button
                          size="sm"
                          variant="ghost"
                          className="btn-danger-ghost"
                          onClick={() => {
                            remove.reset();
                            setRemoving(m);
                          }}
                        >
                          <FormattedMessage id="settings.models.remove" values={{ name: m.name, hidden }} />
                        </Button>
                      ) : null}
                    </>
                  )
                : undefined
            }
          />
        )}
      </Loadable>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? intl.formatMessage({ id: 'settings.models.removeTitle' }, { name: removing.name }) : intl.formatMessage({ id: 'settings.models.removeTitleUnnamed' })}
        confirmLabel={intl.formatMessage({ id: 'settings.models.removeConfirm' })}
        tone="danger"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => removing && void remove.run(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>
          <FormattedMessage id="settings.models.removeBody" />
        </p>
      </ConfirmDialog>
    </Section>
  );
}
