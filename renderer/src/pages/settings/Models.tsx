import { useState } from 'react';
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

const PROVIDERS: Record<Model['provider'], string> = {
  extractive: 'Built-in (extractive)',
  openai_compatible: 'OpenAI-compatible',
  anthropic: 'Anthropic',
  llama_cpp: 'llama.cpp',
};

const KINDS: Record<Model['kind'], string> = { builtin: 'Built-in', third_party: 'Third-party', fine_tuned: 'Fine-tuned' };

const STATUS_BADGE: Record<Model['status'], string> = { available: 'badge badge-success', degraded: 'badge', unavailable: 'badge badge-danger' };
const STATUS_LABEL: Record<Model['status'], string> = { available: 'Available', degraded: 'Degraded', unavailable: 'Unavailable' };

/** Every model that can answer; admins add OpenAI-compatible and Anthropic endpoints, edit, test and remove them. */
export function Models({ isAdmin, onChanged }: { isAdmin: boolean; onChanged: () => void }) {
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
      title="Models and providers"
      description="The models chat can route to. Built-in models work offline; endpoints you add are called over the network."
      actions={
        isAdmin && !adding && !editing ? (
          <Button
            icon={<PlusIcon />}
            onClick={() => {
              setEditing(null);
              setAdding(true);
            }}
          >
            Add endpoint
          </Button>
        ) : null
      }
    >
      {!isAdmin ? <Alert tone="info">Only admins can add, test or remove models.</Alert> : null}
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
        />
      ) : null}
      <Loadable state={models.state} reload={models.reload} loading="Loading models…" failed="The models could not be loaded">
        {(list) => (
          <DataTable
            caption="Endpoints chat can route to"
            /* Local GGUF files have their own section (LocalModels): state, size, load/unload. */
            rows={list.data.filter((m) => m.provider !== 'llama_cpp')}
            rowKey={(m) => m.id}
            empty={<TableEmpty>Nothing can answer yet: add an endpoint above.</TableEmpty>}
            name={{
              header: 'Name',
              wrap: true,
              cell: (m) => (
                <>
                  {m.name}
                  <span className="cell-secondary model-id">{m.endpoint_url ? `${m.model} at ${m.endpoint_url}` : m.model}</span>
                </>
              ),
            }}
            columns={[
              { id: 'provider', header: 'Provider', narrow: 'under', cell: (m) => PROVIDERS[m.provider] },
              { id: 'kind', header: 'Kind', narrow: 'hide', cell: (m) => KINDS[m.kind] },
              {
                id: 'status',
                header: 'Status',
                wrap: true,
                cell: (m) => {
                  const outcome = tests[m.id];
                  return (
                    <>
                      <span className={STATUS_BADGE[m.status]}>{STATUS_LABEL[m.status]}</span>
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
                        Test<span className="visually-hidden"> {m.name}</span>
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
                          Edit<span className="visually-hidden"> {m.name}</span>
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
                          Remove<span className="visually-hidden"> {m.name}</span>
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
        title={removing ? `Remove “${removing.name}”?` : 'Remove model?'}
        confirmLabel="Remove model"
        tone="danger"
        busy={remove.busy}
        error={remove.error}
        onConfirm={() => removing && void remove.run(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>Chat stops routing to it and its stored API key is deleted. Messages it already wrote stay as they are.</p>
      </ConfirmDialog>
    </Section>
  );
}
