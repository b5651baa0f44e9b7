import { useEffect, useState } from 'react';
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

/** A running Ollama or LM Studio: one of its models registered in one click. */
function ServerOffer({ server, onAdded }: { server: Server; onAdded: () => void }) {
  const { models, model, setModel, register } = useServerRegistration(server, onAdded);
  const selectId = `home-server-${server.source}`;
  return (
    <li className="setup-offer">
      <div className="setup-offer-text">
        <strong>{server.name} is running on this machine</strong>
        <span>{models.length === 1 ? `It offers ${models[0]}.` : `It offers ${models.length} models.`} Answers stay on this machine.</span>
        <FormError message={register.error} />
      </div>
      <div className="setup-offer-action">
        {models.length > 1 ? (
          <ServerModelSelect id={selectId} label={`Pick one of what ${server.name} offers`} models={models} model={model} onChange={setModel} />
        ) : null}
        <Button size="sm" variant="primary" busy={register.busy} onClick={() => void register.run()}>
          Use {models.length > 1 ? 'this model' : model}
          <span className="visually-hidden"> from {server.name}</span>
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
        <ul className="setup-offers" aria-label="Found on this machine">
          {servers.map((s) => (
            <ServerOffer key={`${s.source}-${s.endpoint_url ?? s.name}`} server={s} onAdded={onAdded} />
          ))}
        </ul>
      ) : null}
      {running.length > 0 ? (
        <ul className="setup-downloads" aria-label="Downloading">
          {running.map((d) => (
            <li key={d.id}>
              <ProgressBar
                value={d.bytes_total ? d.bytes_done / d.bytes_total : 0}
                label={`Downloading ${d.file_name}`}
                text={d.status === 'verifying' ? `${d.file_name}: checking it…` : `Downloading ${d.file_name}: ${formatBytes(d.bytes_done)}${d.bytes_total ? ` of ${formatBytes(d.bytes_total)}` : ''}`}
              />
            </li>
          ))}
        </ul>
      ) : null}
      {failed.map((d) => (
        <p key={d.id} className="setup-failed" role="status">
          The download of {d.file_name} failed: {d.error ?? 'no reason was given'}.
        </p>
      ))}
      {offered.length > 0 ? (
        <>
          <p className="setup-heading">{servers.length > 0 ? 'Or download one' : 'Download one'} that runs here, offline and private:</p>
          <ul className="setup-offers" aria-label="Recommended downloads">
            {offered.map((m) => (
              <li key={m.id} className="setup-offer">
                <div className="setup-offer-text">
                  <strong>{m.name}</strong>
                  <span>
                    {formatBytes(m.size_bytes)} download · needs about {formatBytes(m.ram_bytes)} of memory · {m.license}
                  </span>
                </div>
                <div className="setup-offer-action">
                  <Button size="sm" variant="secondary" disabled={anyRunning} busy={start.busy} onClick={() => void start.run(m.url)}>
                    Download<span className="visually-hidden"> {m.name}</span>
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
