import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { SelectField, TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { Time } from '../../ui/Time.js';
import { useLoader } from '../../ui/useLoader.js';
import { useAction } from '../../ui/useAction.js';
import { hidden } from './rich.js';

/** An example of what goes in the field: a URL, the same in every language. */
const ENDPOINT_EXAMPLE = 'https://gateway.example.com/v1';

/**
 * A workspace can have a model answered by another endpoint (its own gateway or key, say) without
 * registering a new model: routing and the model picker stay the same.
 */
export interface OverridesProps {
  workspaceId: string;
  workspaceName: string;
  isAdmin: boolean;
  /** Changes when a model was added or removed above, so the choice of models here follows. */
  modelsVersion: number;
}

export function Overrides({ workspaceId, workspaceName, isAdmin, modelsVersion }: OverridesProps) {
  const intl = useIntl();
  const data = useLoader(async () => {
    const [overrides, models] = await Promise.all([client.call('overrides.list', { workspace_id: workspaceId }), client.call('models.list', {})]);
    return { overrides: overrides.data, models: models.data };
  });
  const { reload } = data;
  const seenVersion = useRef(modelsVersion);
  useEffect(() => {
    if (seenVersion.current === modelsVersion) return;
    seenVersion.current = modelsVersion;
    reload();
  }, [modelsVersion, reload]);
  const [modelId, setModelId] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [apiKey, setApiKey] = useState('');
  /** The override being removed, for its row's spinner. */
  const [removingId, setRemovingId] = useState<string | null>(null);

  const put = useAction(async () => {
    if (!modelId || !endpoint.trim()) throw new Error(intl.formatMessage({ id: 'settings.overrides.missing' }));
    await client.call('overrides.put', { workspace_id: workspaceId, model_id: modelId, endpoint_url: endpoint.trim(), ...(apiKey ? { api_key: apiKey } : {}) });
    setEndpoint('');
    setApiKey('');
    data.reload();
  });
  const remove = useAction(async (id: string) => {
    put.reset();
    setRemovingId(id);
    try {
      await client.call('overrides.delete', { workspace_id: workspaceId, model_id: id });
      data.reload();
    } finally {
      setRemovingId(null);
    }
  });

  function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    remove.reset();
    void put.run();
  }

  return (
    <Section
      title={intl.formatMessage({ id: 'settings.overrides.title' })}
      description={intl.formatMessage({ id: 'settings.overrides.description' }, { workspace: workspaceName })}
    >
      <Loadable state={data.state} reload={data.reload} loading={intl.formatMessage({ id: 'settings.overrides.loading' })} failed={intl.formatMessage({ id: 'settings.overrides.loadFailed' })}>
        {({ overrides, models }) => {
          const nameOf = (id: string) => models.find((m) => m.id === id)?.name ?? id;
          const overridable = models.filter((m) => m.provider === 'openai_compatible');
          return (
            <>
              <DataTable
                caption={intl.formatMessage({ id: 'settings.overrides.caption' })}
                rows={overrides}
                rowKey={(o) => o.id}
                empty={
                  <TableEmpty>
                    <FormattedMessage id="settings.overrides.empty" />
                  </TableEmpty>
                }
                name={{ header: intl.formatMessage({ id: 'settings.overrides.column.overridden' }), cell: (o) => nameOf(o.model_id) }}
                columns={[
                  { id: 'endpoint', header: intl.formatMessage({ id: 'settings.overrides.column.endpoint' }), wrap: true, cell: (o) => <code className="key-prefix">{o.endpoint_url}</code> },
                  {
                    id: 'key',
                    header: intl.formatMessage({ id: 'settings.overrides.column.apiKey' }),
                    narrow: 'hide',
                    cell: (o) =>
                      o.has_api_key ? (
                        intl.formatMessage({ id: 'settings.overrides.keyStored' })
                      ) : (
                        <span className="muted">
                          <FormattedMessage id="settings.overrides.keyNone" />
                        </span>
                      ),
                  },
                  { id: 'updated', header: intl.formatMessage({ id: 'settings.overrides.column.updated' }), narrow: 'hide', cell: (o) => <Time iso={o.updated_at} /> },
                ]}
                actions={
                  isAdmin
                    ? (o) => (
                        <Button size="sm" variant="ghost" className="btn-danger-ghost" busy={removingId === o.model_id} onClick={() => void remove.run(o.model_id)}>
                          <FormattedMessage id="settings.overrides.remove" values={{ name: nameOf(o.model_id), hidden }} />
                        </Button>
                      )
                    : undefined
                }
              />
              {isAdmin && overridable.length > 0 ? (
                <form className="model-form" aria-label={intl.formatMessage({ id: 'settings.overrides.formLabel' })} onSubmit={save} noValidate>
                  <div className="form-grid">
                    <SelectField label={intl.formatMessage({ id: 'settings.overrides.model' })} value={modelId} onChange={(e) => setModelId(e.target.value)}>
                      <option value="">{intl.formatMessage({ id: 'settings.overrides.chooseModel' })}</option>
                      {overridable.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.name}
                        </option>
                      ))}
                    </SelectField>
                    <TextField
                      label={intl.formatMessage({ id: 'settings.overrides.endpointUrl' })}
                      type="url"
                      placeholder={ENDPOINT_EXAMPLE}
                      value={endpoint}
                      onChange={(e) => setEndpoint(e.target.value)}
                    />
                    <TextField
                      label={intl.formatMessage({ id: 'settings.overrides.apiKey' })}
                      type="password"
                      autoComplete="off"
                      value={apiKey}
                      onChange={(e) => setApiKey(e.target.value)}
                      hint={intl.formatMessage({ id: 'settings.overrides.apiKeyHint' })}
                    />
                  </div>
                  <FormError message={put.error ?? remove.error} />
                  <div className="model-form-actions">
                    <Button type="submit" variant="primary" busy={put.busy}>
                      <FormattedMessage id="settings.overrides.set" />
                    </Button>
                  </div>
                </form>
              ) : null}
              {isAdmin && overridable.length === 0 ? (
                <p className="muted">
                  <FormattedMessage id="settings.overrides.nothingToOverride" />
                </p>
              ) : null}
            </>
          );
        }}
      </Loadable>
    </Section>
  );
}
