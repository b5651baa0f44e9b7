import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
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
import type { MessageId } from '../../i18n/catalogues/index.js';
import { hidden, muted, strong } from './rich.js';

type LocalInfo = NonNullable<Model['local']>;
type Discovered = Awaited<ReturnType<typeof discovered>>['data'][number];

const discovered = () => client.call('models.discovered', {});

const FOUND_IN = {
  bundled: 'settings.local.foundIn.bundled',
  data_dir: 'settings.local.foundIn.dataDir',
  lm_studio: 'settings.local.foundIn.lmStudio',
  jan: 'settings.local.foundIn.jan',
  gpt4all: 'settings.local.foundIn.gpt4all',
  ollama: 'settings.local.foundIn.ollama',
  folder: 'settings.local.foundIn.folder',
  added: 'settings.local.foundIn.added',
} as const satisfies Record<LocalInfo['found_in'], MessageId>;

const STATE_LABEL = {
  unloaded: 'settings.local.state.unloaded',
  loading: 'settings.local.state.loading',
  loaded: 'settings.local.state.loaded',
  failed: 'settings.local.state.failed',
} as const satisfies Record<LocalInfo['state'], MessageId>;
/** An example of what goes in the field: a path, the same in every language. */
const PATH_EXAMPLE = '/home/me/models/model-Q4_K_M.gguf';
const STATE_BADGE: Record<LocalInfo['state'], string> = { unloaded: 'badge', loading: 'badge', loaded: 'badge badge-success', failed: 'badge badge-danger' };


function details(local: LocalInfo, intl: IntlShape): string {
  return [
    local.architecture,
    local.quantization,
    local.context_length ? intl.formatMessage({ id: 'settings.local.tokens' }, { count: intl.formatNumber(local.context_length) }) : null,
    local.purpose === 'embedding' ? intl.formatMessage({ id: 'settings.local.embeddings' }) : null,
    formatBytes(local.size_bytes, intl.locale),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A running Ollama / LM Studio server: pick one of its models, register it in one click. */
function ServerRow({ server, onRegistered }: { server: Discovered; onRegistered: () => void }) {
  const intl = useIntl();
  const { models, model, setModel, register } = useServerRegistration(server, onRegistered);
  const selectId = `server-model-${server.source}`;
  return (
    <li className="local-server">
      <div>
        <FormattedMessage id="settings.local.server" values={{ name: server.name, url: server.endpoint_url, b: strong, muted }} />
        {server.registered ? (
          <span className="badge badge-success local-badge">
            <FormattedMessage id="settings.local.registered" />
          </span>
        ) : null}
        <FormError message={register.error} />
      </div>
      {models.length > 0 ? (
        <div className="local-server-actions">
          <ServerModelSelect id={selectId} label={intl.formatMessage({ id: 'settings.local.serverModel' }, { name: server.name })} models={models} model={model} onChange={setModel} />
          <Button size="sm" icon={<PlusIcon />} busy={register.busy} onClick={() => void register.run()}>
            <FormattedMessage id="settings.local.register" values={{ name: server.name, hidden }} />
          </Button>
        </div>
      ) : (
        <span className="muted">
          <FormattedMessage id="settings.local.noServerModel" />
        </span>
      )}
    </li>
  );
}

/** Adds a GGUF file from anywhere on this machine (used where it lies). */
function AddFileForm({ onAdded }: { onAdded: () => void }) {
  const intl = useIntl();
  const [path, setPath] = useState('');
  const add = useAction(async () => {
    if (!path.trim()) throw new Error(intl.formatMessage({ id: 'settings.local.pathMissing' }));
    await client.call('models.create', { provider: 'llama_cpp', model_path: path.trim() });
    setPath('');
    onAdded();
  });
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void add.run();
  }
  return (
    <form className="local-add" aria-label={intl.formatMessage({ id: 'settings.local.addFileLabel' })} onSubmit={submit} noValidate>
      <TextField
        label={intl.formatMessage({ id: 'settings.local.addFilePath' })}
        placeholder={PATH_EXAMPLE}
        value={path}
        onChange={(e) => setPath(e.target.value)}
        hint={intl.formatMessage({ id: 'settings.local.addFileHint' })}
      />
      <Button type="submit" icon={<PlusIcon />} busy={add.busy}>
        <FormattedMessage id="settings.local.addFile" />
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
  const intl = useIntl();
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
      setFailure(intl.formatMessage({ id: 'settings.local.toggleFailed' }, { name: model.name, error: errorText(e) }));
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
      title={intl.formatMessage({ id: 'settings.local.title' })}
      description={intl.formatMessage({ id: 'settings.local.description' })}
      actions={
        <Button size="sm" variant="ghost" onClick={changed}>
          <FormattedMessage id="settings.local.rescan" />
        </Button>
      }
    >
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <Loadable state={models.state} reload={models.reload} loading={intl.formatMessage({ id: 'settings.local.loadingList' })} failed={intl.formatMessage({ id: 'settings.local.listFailed' })}>
        {(list) => (
          <DataTable
            caption={intl.formatMessage({ id: 'settings.local.caption' })}
            className="local-table"
            rows={list.flatMap((m) => (m.local ? [{ ...m, local: m.local }] : []))}
            rowKey={(m) => m.id}
            empty={
              <TableEmpty>
                <FormattedMessage id="settings.local.empty" />
              </TableEmpty>
            }
            name={{
              header: intl.formatMessage({ id: 'settings.local.column.name' }),
              wrap: true,
              cell: (m) => (
                <>
                  {m.name}
                  <span className="cell-secondary model-id">{details(m.local, intl)}</span>
                  <span className="cell-secondary model-id local-path" title={m.local.path ?? undefined}>
                    {m.local.path
                      ? intl.formatMessage({ id: 'settings.local.foundAt' }, { where: intl.formatMessage({ id: FOUND_IN[m.local.found_in] }), path: m.local.path })
                      : intl.formatMessage({ id: FOUND_IN[m.local.found_in] })}
                  </span>
                </>
              ),
            }}
            columns={[
              {
                id: 'state',
                header: intl.formatMessage({ id: 'settings.local.column.state' }),
                wrap: true,
                cell: (m) => (
                  <>
                    <span className={STATE_BADGE[m.local.state]}>{intl.formatMessage({ id: STATE_LABEL[m.local.state] })}</span>
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
                        <FormattedMessage id={m.local.state === 'loaded' ? 'settings.local.unload' : 'settings.local.load'} />
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
          <h3 className="local-heading">
            <FormattedMessage id="settings.local.serversTitle" />
          </h3>
          <Loadable
            state={servers.state}
            reload={servers.reload}
            shape="list"
            loading={intl.formatMessage({ id: 'settings.local.serversLoading' })}
            failed={intl.formatMessage({ id: 'settings.local.serversFailed' })}
          >
            {(found) =>
              found.length === 0 ? (
                <p className="muted">
                  <FormattedMessage id="settings.local.noServers" />
                </p>
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
