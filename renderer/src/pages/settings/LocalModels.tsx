import { useState, type FormEvent } from 'react';
import type { Model } from '../../../../shared/operations/models.js';
import { formatBytes } from '../../../../shared/bytes.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { PlusIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Section } from '../../ui/Page.js';
import { errorText } from '../../ui/error-text.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { ServerModelSelect, useServerRegistration } from './ServerModelPicker.js';

type LocalInfo = NonNullable<Model['local']>;
type Discovered = Awaited<ReturnType<typeof discovered>>['data'][number];

const discovered = () => client.call('models.discovered', {});

const FOUND_IN: Record<LocalInfo['found_in'], string> = {
  bundled: 'Shipped with Parley',
  data_dir: 'Parley’s models folder',
  lm_studio: 'LM Studio',
  jan: 'Jan',
  gpt4all: 'GPT4All',
  ollama: 'Ollama',
  folder: 'Search folder',
  added: 'Added by path',
};

const STATE_LABEL: Record<LocalInfo['state'], string> = { unloaded: 'Not loaded', loading: 'Loading…', loaded: 'Loaded', failed: 'Failed' };
const STATE_BADGE: Record<LocalInfo['state'], string> = { unloaded: 'badge', loading: 'badge', loaded: 'badge badge-success', failed: 'badge badge-danger' };


function details(local: LocalInfo): string {
  return [
    local.architecture,
    local.quantization,
    local.context_length ? `${local.context_length.toLocaleString('en')} tokens` : null,
    local.purpose === 'embedding' ? 'embeddings' : null,
    formatBytes(local.size_bytes),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A running Ollama / LM Studio server: pick one of its models, register it in one click. */
function ServerRow({ server, onRegistered }: { server: Discovered; onRegistered: () => void }) {
  const { models, model, setModel, register } = useServerRegistration(server, onRegistered);
  const selectId = `server-model-${server.source}`;
  return (
    <li className="local-server">
      <div>
        <strong>{server.name}</strong> <span className="muted">at {server.endpoint_url}</span>
        {server.registered ? <span className="badge badge-success local-badge">Registered</span> : null}
        <FormError message={register.error} />
      </div>
      {models.length > 0 ? (
        <div className="local-server-actions">
          <ServerModelSelect id={selectId} label={`Model of ${server.name}`} models={models} model={model} onChange={setModel} />
          <Button size="sm" icon={<PlusIcon />} busy={register.busy} onClick={() => void register.run()}>
            Register<span className="visually-hidden"> {server.name}</span>
          </Button>
        </div>
      ) : (
        <span className="muted">It offers no model yet.</span>
      )}
    </li>
  );
}

/** Adds a GGUF file from anywhere on this machine (used where it lies). */
function AddFileForm({ onAdded }: { onAdded: () => void }) {
  const [path, setPath] = useState('');
  const add = useAction(async () => {
    if (!path.trim()) throw new Error('Give the full path of a .gguf file.');
    await client.call('models.create', { provider: 'llama_cpp', model_path: path.trim() });
    setPath('');
    onAdded();
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void add.run();
  }
  return (
    <form className="local-add" aria-label="Add a GGUF file" onSubmit={submit} noValidate>
      <TextField label="Add a GGUF file by path" placeholder="/home/me/models/model-Q4_K_M.gguf" value={path} onChange={(e) => setPath(e.target.value)} hint="Used where it lies; nothing is copied." />
      <Button type="submit" icon={<PlusIcon />} busy={add.busy}>
        Add file
      </Button>
      <FormError message={add.error} />
    </form>
  );
}

/**
 * Settings → Models → Local: the GGUF files found on this machine (Parley's models folder, LM
 * Studio, Jan, GPT4All, Ollama), their state and size, load/unload; running Ollama and LM Studio
 * servers, registered in one click.
 */
export function LocalModels({ isAdmin, onChanged }: { isAdmin: boolean; onChanged: () => void }) {
  const models = useLoader(async () => (await client.call('models.list', {})).data.filter((m) => m.provider === 'llama_cpp'));
  const servers = useLoader(async () => (isAdmin ? (await discovered()).data.filter((d) => d.source !== 'file') : []));
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function toggle(model: Model) {
    setBusy(model.id);
    setFailure(null);
    try {
      await client.call(model.local?.state === 'loaded' ? 'models.unload' : 'models.load', { id: model.id });
    } catch (e) {
      setFailure(`${model.name}: ${errorText(e)}`);
    } finally {
      setBusy(null);
      models.reload();
    }
  }

  const changed = () => {
    models.reload();
    servers.reload();
    onChanged();
  };

  return (
    <Section
      title="Local models"
      description="GGUF models on this machine, run by llama.cpp: free, private and offline. Found in Parley’s models folder and where LM Studio, Jan, GPT4All and Ollama keep theirs — nothing is copied."
      actions={
        <Button size="sm" variant="ghost" onClick={changed}>
          Rescan
        </Button>
      }
    >
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <Loadable state={models.state} reload={models.reload} loading="Looking for local models…" failed="The local models could not be listed">
        {(list) => (
          <DataTable
            caption="GGUF files on this machine"
            className="local-table"
            rows={list.flatMap((m) => (m.local ? [{ ...m, local: m.local }] : []))}
            rowKey={(m) => m.id}
            empty={<TableEmpty>No GGUF file found yet. Put .gguf files in the models folder of Parley’s data directory, or add one by path.</TableEmpty>}
            name={{
              header: 'Name',
              wrap: true,
              cell: (m) => (
                <>
                  {m.name}
                  <span className="cell-secondary model-id">{details(m.local)}</span>
                  <span className="cell-secondary model-id local-path" title={m.local.path ?? undefined}>
                    {FOUND_IN[m.local.found_in]}
                    {m.local.path ? ` — ${m.local.path}` : ''}
                  </span>
                </>
              ),
            }}
            columns={[
              {
                id: 'state',
                header: 'State',
                wrap: true,
                cell: (m) => (
                  <>
                    <span className={STATE_BADGE[m.local.state]}>{STATE_LABEL[m.local.state]}</span>
                    {m.local.error ? <div className="field-error local-error">{m.local.error}</div> : null}
                  </>
                ),
              },
            ]}
            actions={
              isAdmin
                ? (m) =>
                    m.local.state === 'failed' && m.local.error && /not a GGUF|gone|cannot run here/.test(m.local.error) ? null : (
                      <Button size="sm" variant="ghost" busy={busy === m.id} onClick={() => void toggle(m)}>
                        {m.local.state === 'loaded' ? 'Unload' : 'Load'}
                        <span className="visually-hidden"> {m.name}</span>
                      </Button>
                    )
                : undefined
            }
          />
        )}
      </Loadable>
      {isAdmin ? (
        <>
          <h3 className="local-heading">Servers on this machine</h3>
          <Loadable state={servers.state} reload={servers.reload} shape="list" loading="Looking for Ollama and LM Studio…" failed="Servers could not be looked for">
            {(found) =>
              found.length === 0 ? (
                <p className="muted">No Ollama or LM Studio server is running on its usual port.</p>
              ) : (
                <ul className="local-servers">
                  {found.map((s) => (
                    <ServerRow key={s.source} server={s} onRegistered={changed} />
                  ))}
                </ul>
              )
            }
          </Loadable>
          <AddFileForm onAdded={changed} />
        </>
      ) : null}
    </Section>
  );
}
