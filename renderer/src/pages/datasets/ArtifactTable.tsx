import type { Artifact } from '../../../../shared/operations/datasets.js';
import { Button } from '../../ui/Button.js';
import { DatasetIcon } from '../../ui/icons.js';
import { Time } from '../../ui/Time.js';
import { ArtifactStatus } from './ArtifactStatus.js';
import { formatBytes, shortType } from './format.js';

export interface ArtifactTableProps {
  items: Artifact[];
  filtered: boolean;
  busyKey: string | null;
  /** Whether the caller may change the dataset: without it, no Retry or Remove is offered. */
  canWrite: boolean;
  /** The file whose link is being fetched, to open it. */
  openingKey: string | null;
  onOpen: (artifact: Artifact) => void;
  onRetry: (artifact: Artifact) => void;
  onRemove: (artifact: Artifact) => void;
}

/** A file's bytes exist once its upload finished, whatever became of its processing. */
const canOpen = (a: Artifact) => a.status !== 'pending' && a.status !== 'uploading';

/** Failures that retrying cannot fix: the same bytes would fail the same way; upload another file instead. */
const FINAL_FAILURES = new Set(['mime_mismatch', 'unsupported_media_type', 'too_large']);

export const canRetry = (a: Artifact) => a.status === 'failed' && !FINAL_FAILURES.has(a.error?.code ?? '');

export function ArtifactTable({ items, filtered, busyKey, canWrite, openingKey, onOpen, onRetry, onRemove }: ArtifactTableProps) {
  if (items.length === 0) {
    return (
      <div className="table-empty">
        <DatasetIcon size={18} />
        <p>{filtered ? 'No file has this status.' : canWrite ? 'No files yet. Drop some above, or choose them.' : 'No files yet.'}</p>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table artifact-table">
        <caption className="visually-hidden">Files in this dataset</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Type</th>
            <th scope="col" className="cell-number">
              Size
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="cell-number">
              Chunks
            </th>
            <th scope="col">Updated</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr key={a.id}>
              <th scope="row" className="cell-primary artifact-key">
                {canOpen(a) ? (
                  <button type="button" className="artifact-open" aria-busy={openingKey === a.key || undefined} title={`Open ${a.key} in a new tab`} onClick={() => onOpen(a)}>
                    {a.key}
                  </button>
                ) : (
                  a.key
                )}
              </th>
              <td title={a.mime_type ?? undefined}>{shortType(a.mime_type, a.filename)}</td>
              <td className="cell-number">{formatBytes(a.size)}</td>
              <td>
                <ArtifactStatus artifact={a} />
              </td>
              <td className="cell-number">{a.status === 'ready' ? a.chunk_count : <span className="muted">—</span>}</td>
              <td>
                <Time iso={a.updated_at} />
              </td>
              <td className="cell-actions">
                {canWrite && canRetry(a) ? (
                  <Button size="sm" variant="ghost" busy={busyKey === a.key} onClick={() => onRetry(a)}>
                    Retry<span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
                {canWrite && (a.status === 'ready' || a.status === 'failed') ? (
                  <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={busyKey === a.key} onClick={() => onRemove(a)}>
                    Remove<span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
