import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { useSession } from '../../app/store.js';
import type { Artifact } from '../../../../shared/operations/datasets.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { processingText } from './format.js';

const LABELS: Record<Artifact['status'], MessageId> = {
  pending: 'datasets.status.pending',
  uploading: 'datasets.status.uploading',
  processing: 'datasets.status.processing',
  ready: 'datasets.status.ready',
  failed: 'datasets.status.failed',
};

/** Failure codes in words; the service's detail follows, since it names the specific cause. */
const REASONS: Partial<Record<string, MessageId>> = {
  too_large: 'datasets.failure.tooLarge',
  incomplete: 'datasets.failure.incomplete',
  mime_mismatch: 'datasets.failure.mimeMismatch',
  unsupported_media_type: 'datasets.failure.unsupportedMediaType',
  parse_error: 'datasets.failure.parseError',
  empty: 'datasets.failure.empty',
  cancelled: 'datasets.failure.cancelled',
};

/** A failure code in words, or the code itself when it has none. */
function reasonText(intl: IntlShape, code: string): string {
  const reason = REASONS[code];
  return reason ? intl.formatMessage({ id: reason }) : code;
}

/** Why an artifact failed, in a sentence: the service's detail names the cause, the code's words stand in without it. */
export function failureText(intl: IntlShape, artifact: Artifact): string {
  return artifact.error?.detail || reasonText(intl, artifact.error?.code ?? 'failed');
}

/**
 * A type refused because `[uploads] allowed_types` lacks it, which the one who edits the config can
 * change; a picture is refused whatever it says, as no parser reads one (the service's detail says so).
 */
function isAdminChoice(artifact: Artifact): boolean {
  return artifact.error?.code === 'unsupported_media_type' && artifact.mime_type !== null && !artifact.mime_type.startsWith('image/');
}

export function statusLabel(intl: IntlShape, status: Artifact['status']): string {
  return intl.formatMessage({ id: LABELS[status] });
}

/** Where an artifact is: a bar while its bytes arrive, a spinner while it is read, the reason when it failed. */
export function ArtifactStatus({ artifact }: { artifact: Artifact }) {
  const intl = useIntl();
  const role = useSession((s) => (s.session.status === 'signed-in' ? s.session.me.user.role : null));
  switch (artifact.status) {
    case 'uploading':
      return (
        <span className="status status-uploading">
          <ProgressBar
            value={artifact.progress}
            label={intl.formatMessage({ id: 'datasets.status.uploadingLabel' }, { key: artifact.key })}
            text={intl.formatMessage({ id: 'datasets.status.uploadingProgress' }, { progress: artifact.progress })}
          />
        </span>
      );
    case 'processing':
      return (
        <span className="status status-processing">
          <span className="spinner" aria-hidden="true" />
          {processingText(intl, artifact.progress)}
        </span>
      );
    case 'failed': {
      const code = artifact.error?.code ?? 'failed';
      const admin = role === 'super_admin';
      // Stopped on purpose, not broken: its own word, and the sentence says all the detail would.
      const cancelled = code === 'cancelled';
      return (
        <span className={cancelled ? 'status status-failed status-cancelled' : 'status status-failed'}>
          <span className={cancelled ? 'badge' : 'badge badge-danger'}>{cancelled ? intl.formatMessage({ id: 'datasets.status.cancelled' }) : statusLabel(intl, 'failed')}</span>
          <span className="status-reason">
            {reasonText(intl, code)}
            {artifact.error?.detail && !cancelled ? <span className="status-detail">{artifact.error.detail}</span> : null}
            {admin && isAdminChoice(artifact) ? (
              <span className="status-detail">
                <FormattedMessage id="datasets.failure.allowedTypesHint" />
              </span>
            ) : null}
          </span>
        </span>
      );
    }
    case 'ready':
      return (
        <span className="status status-ready">
          <span className="badge badge-success">{statusLabel(intl, 'ready')}</span>
          <EmbeddingProgress artifact={artifact} />
        </span>
      );
    case 'pending':
      return <span className="badge">{statusLabel(intl, 'pending')}</span>;
  }
}

/**
 * A ready file's vectors, computed in the background: a small bar while they come, a word when
 * they failed (keyword search finds the file either way), nothing once they are all there.
 */
function EmbeddingProgress({ artifact }: { artifact: Artifact }) {
  const intl = useIntl();
  const embedding = artifact.embedding;
  if (!embedding || embedding.state === 'ready') return null;
  if (embedding.state === 'failed') {
    return (
      <span className="status-embedding status-embedding-failed" title={embedding.error ?? undefined}>
        {embedding.error
          ? intl.formatMessage({ id: 'datasets.status.keywordOnlyWithError' }, { error: embedding.error })
          : intl.formatMessage({ id: 'datasets.status.keywordOnly' })}
      </span>
    );
  }
  const share = embedding.total === 0 ? 0 : embedding.done / embedding.total;
  return (
    <span className="status-embedding">
      <ProgressBar
        value={share}
        label={intl.formatMessage({ id: 'datasets.status.embeddingLabel' }, { key: artifact.key })}
        text={intl.formatMessage({ id: 'datasets.status.embeddingProgress' }, { done: embedding.done, total: embedding.total })}
      />
    </span>
  );
}
