import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { CatalogModel, ModelDownload } from '../../../../shared/operations/model-downloads.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { TextField } from '../../ui/Field.js';
import { FormError } from '../../ui/FormError.js';
import { Loadable } from '../../ui/Loadable.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { errorText } from '../../ui/error-text.js';
import { useAction } from '../../ui/useAction.js';
import { useLoader } from '../../ui/useLoader.js';
import { formatBytes } from '../datasets/format.js';

/** Where Home's "Download a model" leads: Settings, scrolled to this section. */
export const LOCAL_MODELS_HASH = '#/settings/local-models';
/** How often the downloads are re-read while one runs. */
const POLL_MS = 1000;

const ACTIVE = new Set<ModelDownload['status']>(['queued', 'downloading', 'verifying']);
const STATUS_LABEL: Record<ModelDownload['status'], string> = {
  queued: 'Queued',
  downloading: 'Downloading',
  verifying: 'Verifying',
  complete: 'Downloaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const STATUS_BADGE: Record<ModelDownload['status'], string> = {
  queued: 'badge',
  downloading: 'badge badge-accent',
  verifying: 'badge badge-accent',
  complete: 'badge badge-success',
  failed: 'badge badge-danger',
  cancelled: 'badge',
};

/**
 * Settings → Models → Local: the built-in catalogue of recommended GGUF models (what each needs
 * and whether it fits this machine's memory), a download by URL, and the downloads with their
 * progress. Admins download; everyone sees what is there.
 */
export function ModelCatalog({ isAdmin, onDownloaded }: { isAdmin: boolean; onDownloaded?: () => void }) {
  const catalog = useLoader(() => client.call('models.catalog', {}));
  const downloads = useLoader(() => (isAdmin ? client.call('models.downloads.list', {}) : Promise.resolve({ data: [] as ModelDownload[] })));
  const list = downloads.state.status === 'ready' ? downloads.state.data.data : [];
  const running = list.some((d) => ACTIVE.has(d.status));
  const section = useRef<HTMLElement>(null);

  // Poll while something downloads; when the last one settles, the catalogue's "Downloaded" marks change.
  const wasRunning = useRef(false);
  const onDownloadedRef = useRef(onDownloaded);
  useEffect(() => {
    onDownloadedRef.current = onDownloaded;
  });
  const reloadCatalog = catalog.reload;
  const reloadDownloads = downloads.reload;
  useEffect(() => {
    if (wasRunning.current && !running) {
      reloadCatalog();
      onDownloadedRef.current?.();
    }
    wasRunning.current = running;
    if (!running) return;
    const timer = setInterval(reloadDownloads, POLL_MS);
    return () => clearInterval(timer);
  }, [running, reloadDownloads, reloadCatalog]);

  // Led here from the home screen: show this section once its list is in (the page above has settled by then).
  const catalogReady = catalog.state.status === 'ready';
  useEffect(() => {
    if (catalogReady && window.location.hash === LOCAL_MODELS_HASH) section.current?.scrollIntoView({ block: 'start' });
  }, [catalogReady]);

  const start = useAction(async (input: { url: string; sha256?: string }) => {
    await client.call('models.downloads.create', input);
    downloads.reload();
  });
  const [cancelError, setCancelError] = useState<string | null>(null);
  async function cancel(d: ModelDownload) {
    setCancelError(null);
    try {
      await client.call('models.downloads.cancel', { id: d.id });
    } catch (e) {
      setCancelError(errorText(e));
    }
    downloads.reload();
  }

  const activeUrls = new Set(list.filter((d) => ACTIVE.has(d.status)).map((d) => d.url));

  return (
    <section ref={section} id="model-catalog" className="section" aria-labelledby="model-catalog-title">
      <div className="section-header">
        <div>
          <h2 id="model-catalog-title">Download local models</h2>
          <p className="section-description">
            Models that run on this machine, offline and private. A download is checked (SHA-256, GGUF format) and then placed in the models folder of the data directory.
          </p>
        </div>
      </div>
      {!isAdmin ? <Alert tone="info">Only admins can download models.</Alert> : null}
      <Loadable state={catalog.state} reload={catalog.reload} loading="Loading the catalogue…" failed="The catalogue could not be loaded">
        {(c) => (
          <>
            <p className="muted catalog-memory">This machine has {formatBytes(c.memory_total_bytes)} of memory. Models that need more are marked.</p>
            <ul className="catalog-list" aria-label="Recommended models">
              {c.data.map((m) => (
                <CatalogItem key={m.id} model={m} isAdmin={isAdmin} downloading={activeUrls.has(m.url)} busy={start.busy} onDownload={() => void start.run({ url: m.url })} />
              ))}
            </ul>
          </>
        )}
      </Loadable>
      <FormError message={start.error} />
      {isAdmin ? <DownloadByUrl busy={start.busy} onSubmit={(input) => start.run(input)} /> : null}
      {isAdmin && list.length > 0 ? (
        <>
          <h3 className="subsection-title">Downloads</h3>
          <FormError message={cancelError} />
          <ul className="download-list" aria-label="Downloads">
            {list.map((d) => (
              <DownloadItem key={d.id} download={d} onCancel={() => void cancel(d)} />
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function CatalogItem({ model: m, isAdmin, downloading, busy, onDownload }: { model: CatalogModel; isAdmin: boolean; downloading: boolean; busy: boolean; onDownload: () => void }) {
  return (
    <li className="catalog-item">
      <div className="catalog-main">
        <div className="catalog-name">
          <strong>{m.name}</strong>
          <span className="badge">{m.kind === 'chat' ? 'Chat' : 'Embedding'}</span>
          {m.downloaded ? <span className="badge badge-success catalog-badge">Downloaded</span> : null}
          {!m.fits ? <span className="badge badge-danger catalog-badge">Too large for this machine’s memory</span> : null}
        </div>
        <p className="catalog-description">{m.description}</p>
        <p className="muted catalog-meta">
          {m.parameters} parameters · {m.quantization} · {formatBytes(m.size_bytes)} download · needs about {formatBytes(m.ram_bytes)} of memory ·{' '}
          <a href={m.license_url} target="_blank" rel="noreferrer">
            {m.license}
          </a>
        </p>
      </div>
      {isAdmin && !m.downloaded ? (
        <div className="catalog-action">
          <Button size="sm" variant={m.fits ? 'primary' : 'secondary'} disabled={downloading} busy={busy} onClick={onDownload}>
            {downloading ? 'Downloading…' : m.fits ? 'Download' : 'Download anyway'}
            <span className="visually-hidden"> {m.name}</span>
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function DownloadItem({ download: d, onCancel }: { download: ModelDownload; onCancel: () => void }) {
  const active = ACTIVE.has(d.status);
  const total = d.bytes_total;
  const amount = total ? `${formatBytes(d.bytes_done)} of ${formatBytes(total)}` : formatBytes(d.bytes_done);
  return (
    <li className="download-item">
      <div className="download-head">
        <span className="download-name">{d.file_name}</span>
        <span className={STATUS_BADGE[d.status]}>{STATUS_LABEL[d.status]}</span>
      </div>
      {active ? (
        <div className="download-progress">
          <ProgressBar value={total ? d.bytes_done / total : 0} label={`${d.file_name}: ${STATUS_LABEL[d.status].toLowerCase()}`} text={d.status === 'verifying' ? 'Checking the SHA-256…' : amount} />
          <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={onCancel}>
            Cancel<span className="visually-hidden"> the download of {d.file_name}</span>
          </Button>
        </div>
      ) : null}
      {active && d.error ? <p className="muted download-note">{d.error}</p> : null}
      {d.status === 'failed' && d.error ? <p className="download-error">{d.error}</p> : null}
      {d.status === 'complete' ? (
        <p className="muted download-note">
          {formatBytes(d.bytes_done)} in the models folder{d.sha256 ? `, SHA-256 ${d.sha256.slice(0, 12)}…${d.sha256_source ? ' verified' : ''}` : ''}.
        </p>
      ) : null}
    </li>
  );
}

function DownloadByUrl({ busy, onSubmit }: { busy: boolean; onSubmit: (input: { url: string; sha256?: string }) => Promise<unknown> }) {
  const [url, setUrl] = useState('');
  const [sha, setSha] = useState('');
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!url.trim()) return;
    await onSubmit({ url: url.trim(), ...(sha.trim() ? { sha256: sha.trim() } : {}) });
    setUrl('');
    setSha('');
  }
  return (
    <details className="download-by-url">
      <summary>Download another GGUF file by its URL</summary>
      <form className="model-form" aria-label="Download a model by URL" onSubmit={(e) => void submit(e)} noValidate>
        <div className="form-grid">
          <TextField label="File URL" type="url" placeholder="https://huggingface.co/…/resolve/main/model.gguf" value={url} onChange={(e) => setUrl(e.target.value)} />
          <TextField
            label="SHA-256"
            placeholder="Optional"
            value={sha}
            onChange={(e) => setSha(e.target.value)}
            hint="Hugging Face states it for its files; give it for other servers to have the file checked."
          />
        </div>
        <div className="model-form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!url.trim()}>
            Download
          </Button>
        </div>
      </form>
    </details>
  );
}
