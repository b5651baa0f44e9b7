import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
import type { MessageId } from '../../i18n/catalogues/index.js';
import { hidden } from './rich.js';
import { LOCAL_MODELS_HASH } from './sections.js';

/** How often the downloads are re-read while one runs. */
const POLL_MS = 1000;

const ACTIVE = new Set<ModelDownload['status']>(['queued', 'downloading', 'verifying']);
const STATUS_LABEL = {
  queued: 'settings.catalog.status.queued',
  downloading: 'settings.catalog.status.downloading',
  verifying: 'settings.catalog.status.verifying',
  complete: 'settings.catalog.status.complete',
  failed: 'settings.catalog.status.failed',
  cancelled: 'settings.catalog.status.cancelled',
} as const satisfies Record<ModelDownload['status'], MessageId>;
/** An example of what goes in the field: a URL, the same in every language. */
const FILE_URL_EXAMPLE = 'https://huggingface.co/…/resolve/main/model.gguf';
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
  const intl = useIntl();
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
          <h2 id="model-catalog-title">
            <FormattedMessage id="settings.catalog.title" />
          </h2>
          <p className="section-description">
            <FormattedMessage id="settings.catalog.description" />
          </p>
        </div>
      </div>
      {!isAdmin ? (
        <Alert tone="info">
          <FormattedMessage id="settings.catalog.adminsOnly" />
        </Alert>
      ) : null}
      <Loadable state={catalog.state} reload={catalog.reload} loading={intl.formatMessage({ id: 'settings.catalog.loading' })} failed={intl.formatMessage({ id: 'settings.catalog.loadFailed' })}>
        {(c) => (
          <>
            <p className="muted catalog-memory">
              <FormattedMessage id="settings.catalog.memory" values={{ memory: formatBytes(c.memory_total_bytes, intl.locale) }} />
            </p>
            <ul className="catalog-list" aria-label={intl.formatMessage({ id: 'settings.catalog.listLabel' })}>
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
          <h3 className="subsection-title">
            <FormattedMessage id="settings.catalog.downloadsTitle" />
          </h3>
          <FormError message={cancelError} />
          <ul className="download-list" aria-label={intl.formatMessage({ id: 'settings.catalog.downloadsLabel' })}>
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
  const intl = useIntl();
  const licenseLink = (chunks: ReactNode[]) => (
    <a href={m.license_url} target="_blank" rel="noreferrer">
      {chunks}
    </a>
  );
  return (
    <li className="catalog-item">
      <div className="catalog-main">
        <div className="catalog-name">
          <strong>{m.name}</strong>
          <span className="badge">
            <FormattedMessage id={m.kind === 'chat' ? 'settings.catalog.kindChat' : 'settings.catalog.kindEmbedding'} />
          </span>
          {m.downloaded ? (
            <span className="badge badge-success catalog-badge">
              <FormattedMessage id="settings.catalog.downloaded" />
            </span>
          ) : null}
          {!m.fits ? (
            <span className="badge badge-danger catalog-badge">
              <FormattedMessage id="settings.catalog.tooLarge" />
            </span>
          ) : null}
        </div>
        <p className="catalog-description">{m.description}</p>
        <p className="muted catalog-meta">
          <FormattedMessage
            id="settings.catalog.meta"
            values={{ parameters: m.parameters, quantization: m.quantization, size: formatBytes(m.size_bytes, intl.locale), ram: formatBytes(m.ram_bytes, intl.locale), license: m.license, link: licenseLink }}
          />
        </p>
      </div>
      {isAdmin && !m.downloaded ? (
        <div className="catalog-action">
          <Button size="sm" variant={m.fits ? 'primary' : 'secondary'} disabled={downloading} busy={busy} onClick={onDownload}>
            <FormattedMessage id={downloading ? 'settings.catalog.downloading' : m.fits ? 'settings.catalog.download' : 'settings.catalog.downloadAnyway'} />
            <span className="visually-hidden"> {m.name}</span>
          </Button>
        </div>
      ) : null}
    </li>
  );
}

function DownloadItem({ download: d, onCancel }: { download: ModelDownload; onCancel: () => void }) {
  const intl = useIntl();
  const active = ACTIVE.has(d.status);
  const total = d.bytes_total;
  const amount = total ? intl.formatMessage({ id: 'settings.catalog.amount' }, { done: formatBytes(d.bytes_done, intl.locale), total: formatBytes(total, intl.locale) }) : formatBytes(d.bytes_done, intl.locale);
  const size = formatBytes(d.bytes_done, intl.locale);
  const sha = d.sha256?.slice(0, 12);
  return (
    <li className="download-item">
      <div className="download-head">
        <span className="download-name">{d.file_name}</span>
        <span className={STATUS_BADGE[d.status]}>{intl.formatMessage({ id: STATUS_LABEL[d.status] })}</span>
      </div>
      {active ? (
        <div className="download-progress">
          <ProgressBar
            value={total ? d.bytes_done / total : 0}
            label={intl.formatMessage({ id: 'settings.catalog.progressLabel' }, { file: d.file_name, status: d.status })}
            text={d.status === 'verifying' ? intl.formatMessage({ id: 'settings.catalog.checkingSha' }) : amount}
          />
          <Button size="sm" variant="ghost" className="btn-danger-ghost" onClick={onCancel}>
            <FormattedMessage id="settings.catalog.cancel" values={{ file: d.file_name, hidden }} />
          </Button>
        </div>
      ) : null}
      {active && d.error ? <p className="muted download-note">{d.error}</p> : null}
      {d.status === 'failed' && d.error ? <p className="download-error">{d.error}</p> : null}
      {d.status === 'complete' ? (
        <p className="muted download-note">
          {sha === undefined ? (
            <FormattedMessage id="settings.catalog.complete" values={{ size }} />
          ) : (
            <FormattedMessage id={d.sha256_source ? 'settings.catalog.completeShaVerified' : 'settings.catalog.completeSha'} values={{ size, sha }} />
          )}
        </p>
      ) : null}
    </li>
  );
}

function DownloadByUrl({ busy, onSubmit }: { busy: boolean; onSubmit: (input: { url: string; sha256?: string }) => Promise<unknown> }) {
  const intl = useIntl();
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
      <summary>
        <FormattedMessage id="settings.catalog.byUrlSummary" />
      </summary>
      <form className="model-form" aria-label={intl.formatMessage({ id: 'settings.catalog.byUrlLabel' })} onSubmit={(e) => void submit(e)} noValidate>
        <div className="form-grid">
          <TextField label={intl.formatMessage({ id: 'settings.catalog.fileUrl' })} type="url" placeholder={FILE_URL_EXAMPLE} value={url} onChange={(e) => setUrl(e.target.value)} />
          <TextField
            label={intl.formatMessage({ id: 'settings.catalog.sha256' })}
            placeholder={intl.formatMessage({ id: 'settings.catalog.shaPlaceholder' })}
            value={sha}
            onChange={(e) => setSha(e.target.value)}
            hint={intl.formatMessage({ id: 'settings.catalog.shaHint' })}
          />
        </div>
        <div className="model-form-actions">
          <Button type="submit" variant="primary" busy={busy} disabled={!url.trim()}>
            <FormattedMessage id="settings.catalog.download" />
          </Button>
        </div>
      </form>
    </details>
  );
}
