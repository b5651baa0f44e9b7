import type { Artifact } from '../../../../shared/operations/datasets.js';
import { ProgressBar } from '../../ui/ProgressBar.js';

const LABELS: Record<Artifact['status'], string> = {
  pending: 'Waiting',
  uploading: 'Uploading',
  processing: 'Processing',
  ready: 'Ready',
  failed: 'Failed',
};

/** Failure codes in words; the service's detail follows, since it names the specific cause. */
const REASONS: Record<string, string> = {
  too_large: 'Too large',
  incomplete: 'Upload incomplete',
  mime_mismatch: 'Content does not match its type',
  unsupported_media_type: 'Unsupported file type',
  parse_error: 'Could not be read',
  empty: 'No text found',
};

/** Why an artifact failed, in a sentence: the service's detail names the cause, the code's words stand in without it. */
export function failureText(artifact: Artifact): string {
  const code = artifact.error?.code ?? 'failed';
  return artifact.error?.detail || (REASONS[code] ?? code);
}

export function statusLabel(status: Artifact['status']): string {
  return LABELS[status];
}

/** Where an artifact is: a bar while its bytes arrive, a spinner while it is read, the reason when it failed. */
export function ArtifactStatus({ artifact }: { artifact: Artifact }) {
  switch (artifact.status) {
    case 'uploading':
      return (
        <span className="status status-uploading">
          <ProgressBar value={artifact.progress} label={`${artifact.key} uploading`} text={`Uploading ${Math.round(artifact.progress * 100)}%`} />
        </span>
      );
    case 'processing':
      return (
        <span className="status status-processing">
          <span className="spinner" aria-hidden="true" />
          Processing
        </span>
      );
    case 'failed': {
      const code = artifact.error?.code ?? 'failed';
      return (
        <span className="status status-failed">
          <span className="badge badge-danger">Failed</span>
          <span className="status-reason">
            {REASONS[code] ?? code}
            {artifact.error?.detail ? <span className="status-detail">{artifact.error.detail}</span> : null}
          </span>
        </span>
      );
    }
    case 'ready':
      return (
        <span className="status status-ready">
          <span className="badge badge-success">Ready</span>
          <EmbeddingProgress artifact={artifact} />
        </span>
      );
    case 'pending':
      return <span className="badge">Waiting</span>;
  }
}

/**
 * A ready file's vectors, computed in the background: a small bar while they come, a word when
 * they failed (keyword search finds the file either way), nothing once they are all there.
 */
function EmbeddingProgress({ artifact }: { artifact: Artifact }) {
  const embedding = artifact.embedding;
  if (!embedding || embedding.state === 'ready') return null;
  if (embedding.state === 'failed') {
    return (
      <span className="status-embedding status-embedding-failed" title={embedding.error ?? undefined}>
        Keyword search only: embedding failed{embedding.error ? ` (${embedding.error})` : ''}
      </span>
    );
  }
  const share = embedding.total === 0 ? 0 : embedding.done / embedding.total;
  return (
    <span className="status-embedding">
      <ProgressBar value={share} label={`${artifact.key} embedding`} text={`Embedding ${embedding.done} of ${embedding.total}`} />
    </span>
  );
}
