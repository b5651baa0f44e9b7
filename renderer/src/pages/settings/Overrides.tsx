import { useEffect, useRef, useState, type FormEvent } from 'react';
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
    if (!modelId || !endpoint.trim()) throw new Error('Choose a model and give the endpoint URL that should answer for it.');
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
      title="Workspace endpoint overrides"
      description={`In “${workspaceName}”, send a model’s requests to another endpoint, such as your own gateway, with its own key.`}
    >
      <Loadable state={data.state} reload={data.reload} loading="Loading overrides…" failed="The overrides could not be loaded">
        {({ overrides, models }) => {
          const nameOf = (id: string) => models.find((m) => m.id === id)?.name ?? id;
          const overridable = models.filter((m) => m.provider === 'openai_compatible');
          return (
            <>
              <DataTable
                caption="Endpoint overrides"
                rows={overrides}
                rowKey={(o) => o.id}
                empty={<TableEmpty>No overrides: every model answers from its own endpoint.</TableEmpty>}
                name={{ header: 'Overridden', cell: (o) => nameOf(o.model_id) }}
                columns={[
                  { id: 'endpoint', header: 'Endpoint', wrap: true, cell: (o) => <code className="key-prefix">{o.endpoint_url}</code> },
                  { id: 'key', header: 'API key', narrow: 'hide', cell: (o) => (o.has_api_key ? 'Stored' : <span className="muted">None</span>) },
                  { id: 'updated', header: 'Updated', narrow: 'hide', cell: (o) => <Time iso={o.updated_at} /> },
                ]}
                actions={
                  isAdmin
                    ? (o) => (
                        <Button size="sm" variant="ghost" className="btn-danger-ghost" busy={removingId === o.model_id} onClick={() => void remove.run(o.model_id)}>
                          Remove<span className="visually-hidden"> override of {nameOf(o.model_id)}</span>
                        </Button>
                      )
                    : undefined
                }
              />
              {isAdmin && overridable.length > 0 ? (
                <form className="model-form" aria-label="Set an endpoint override" onSubmit={save} noValidate>
                  <div className="form-grid">
                    <SelectField label="Model to override" value={modelId} onChange={(e) => setModelId(e.target.value)}>
                      <option value="">Choose a model…</option>
                      {overridable.map((m) => (
                        <option key={m.id} value={m.id}>
                          {m.name}
                        </option>
                      ))}
                    </SelectField>
                    <TextField label="Override endpoint URL" type="url" placeholder="https://gateway.example.com/v1" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} />
                    <TextField
                      label="Override API key"
                      type="password"
                      autoComplete="off"
                      value={apiKey}
                      onChange={(e) => setApiKey(e.target.value)}
                      hint="Optional; the model’s own key is used otherwise."
                    />
                  </div>
                  <FormError message={put.error ?? remove.error} />
                  <div className="model-form-actions">
                    <Button type="submit" variant="primary" busy={put.busy}>
                      Set override
                    </Button>
                  </div>
                </form>
              ) : null}
              {isAdmin && overridable.length === 0 ? <p className="muted">Add an OpenAI-compatible endpoint above to override it here.</p> : null}
            </>
          );
        }}
      </Loadable>
    </Section>
  );
}
