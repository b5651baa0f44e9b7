import { useEffect, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ModelDownload } from '../../../../shared/operations/model-downloads.js';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { FormError } from '../../ui/FormError.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { formatBytes } from '../datasets/format.js';
import { ServerModelSelect, useServerRegistration, type DiscoveredServer } from '../settings/ServerModelPicker.js';

type Server = DiscoveredServer;

/** How often the downloads are read again while one runs. */
const POLL_MS = 1000;
/** Recommended chat models offered on the home screen; Settings lists them all. */
const OFFERED = 3;
const ACTIVE = new Set<ModelDownload['status']>(['queued', 'downloading', 'verifying']);
/** The part of a button's name only screen readers hear (which model, from where). */
const HIDDEN = { hidden: (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span> };

/** A running Ollama or LM Studio: one of its models registered in one click. */
function ServerOffer({ server, onAdded }: { server: Server; onAdded: () => void }) {
  const intl = useIntl();
  const { models, model, setModel, register } = useServerRegistration(server, onAdded);
  const selectId = `home-server-${server.source}`;
  return (
    <li className="setup-offer">
      <div className="setup-offer-text">
        <strong>
          <FormattedMessage id="chat.setup.serverRunning" values={{ server: server.name }} />
        </strong>
        <span>
          {models.length === 1 ? (
            <FormattedMessage id="chat.setup.offersOne" values={{ model: models[0] }} />
          ) : (
            <FormattedMessage id="chat.setup.offersMany" values={{ count: models.length }} />
          )}
        </span>
        <FormError message={register.error} />
      </div>
      <div className="setup-offer-action">
        {models.length > 1 ? (
          <ServerModelSelect id={selectId} label={intl.formatMessage({ id: 'chat.setup.pickModel' }, { server: server.name })} models={models} model={model} onChange={setModel} />
        ) : null}
        <Button size="sm" variant="primary" busy={register.busy} onClick={() => void register.run()}>
          {models.length > 1 ? (
            <FormattedMessage id="chat.setup.useThisModel" values={{ ...HIDDEN, server: server.name }} />
          ) : (
            <FormattedMessage id="chat.setup.useModel" values={{ ...HIDDEN, model, server: server.name }} />
          )}
        </Button>
      </div>
    </li>
  );
}

/**
 * For an admin on a fresh install (only the built-in model): what this machine already runs
 * (Ollama, LM Studio — registered in one click) and recommended local models to download, with
 * their progress, right on the home screen. `onAdded`: a model can now chat (the pickers reload).
 */
export function HomeSetup({ onAdded }: { onAdded: () => void }) {
  const intl = useIntl();
  const discovered = useLoader(() => client.call('models.discovered', {}));
  const catalog = useLoader(() => client.call('models.catalog', {}));
  const downloads = useLoader(() => client.call('models.downloads.list', {}));
  const list = downloads.state.status === 'ready' ? downloads.state.data.data : [];
  const running = list.filter((d) => ACTIVE.has(d.status));
  const anyRunning = running.length > 0;
  const reloadDownloads = downloads.reload;

  // Read the downloads again while one runs; when the last ends, the new model is there to chat with.
  const [wasRunning, setWasRunning] = useState(false);
  useEffect(() => {
    if (wasRunning && !anyRunning) onAdded();
    setWasRunning(anyRunning);
    if (!anyRunning) return;
    const timer = setInterval(reloadDownloads, POLL_MS);
    return () => clearInterval(timer);
  }, [anyRunning, wasRunning, reloadDownloads, onAdded]);

  const start = useAction(async (url: string) => {
    await client.call('models.downloads.create', { url });
    reloadDownloads();
  });

  const servers = discovered.state.status === 'ready' ? discovered.state.data.data.filter((s) => s.source !== 'file' && !s.registered && (s.models?.length ?? 0) > 0) : [];
  const offered = catalog.state.status === 'ready' ? catalog.state.data.data.filter((m) => m.kind === 'chat' && m.fits && !m.downloaded).slice(0, OFFERED) : [];
  const failed = list.filter((d) => d.status === 'failed').slice(0, 1);

  return (
    <div className="home-setup">
      {servers.length > 0 ? (
        <ul className="setup-offers" aria-label={intl.formatMessage({ id: 'chat.setup.found' })}>
          {servers.map((s) => (
            <ServerOffer key={`${s.source}-${s.endpoint_url ?? s.name}`} server={s} onAdded={onAdded} />
          ))}
        </ul>
      ) : null}
      {running.length > 0 ? (
        <ul className="setup-downloads" aria-label={intl.formatMessage({ id: 'chat.setup.downloading' })}>
          {running.map((d) => (
            <li key={d.id}>
              <ProgressBar
                value={d.bytes_total ? d.bytes_done / d.bytes_total : 0}
                label={intl.formatMessage({ id: 'chat.setup.downloadingFile' }, { file: d.file_name })}
                text={
                  d.status === 'verifying'
                    ? intl.formatMessage({ id: 'chat.setup.verifying' }, { file: d.file_name })
                    : d.bytes_total
                      ? intl.formatMessage({ id: 'chat.setup.progress' }, { file: d.file_name, done: formatBytes(d.bytes_done, intl.locale), total: formatBytes(d.bytes_total, intl.locale) })
                      : intl.formatMessage({ id: 'chat.setup.progressUnknown' }, { file: d.file_name, done: formatBytes(d.bytes_done, intl.locale) })
                }
              />
            </li>
          ))}
        </ul>
      ) : null}
      {failed.map((d) => (
        <p key={d.id} className="setup-failed" role="status">
          <FormattedMessage id="chat.setup.failed" values={{ file: d.file_name, reason: d.error ?? intl.formatMessage({ id: 'chat.setup.noReason' }) }} />
        </p>
      ))}
      {offered.length > 0 ? (
        <>
          <p className="setup-heading">
            <FormattedMessage id={servers.length > 0 ? 'chat.setup.orDownloadHeading' : 'chat.setup.downloadHeading'} />
          </p>
          <ul className="setup-offers" aria-label={intl.formatMessage({ id: 'chat.setup.recommended' })}>
            {offered.map((m) => (
              <li key={m.id} className="setup-offer">
                <div className="setup-offer-text">
                  <strong>{m.name}</strong>
                  <span>
                    <FormattedMessage id="chat.setup.offerFacts" values={{ size: formatBytes(m.size_bytes, intl.locale), ram: formatBytes(m.ram_bytes, intl.locale), license: m.license }} />
                  </span>
                </div>
                <div className="setup-offer-action">
                  <Button size="sm" variant="secondary" disabled={anyRunning} busy={start.busy} onClick={() => void start.run(m.url)}>
                    <FormattedMessage id="chat.setup.download" values={{ ...HIDDEN, name: m.name }} />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <FormError message={start.error} />
    </div>
  );
}
