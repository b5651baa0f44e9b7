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
  onRetry: (artifact: Artifact) => void;
  onRemove: (artifact: Artifact) => void;
}

/** Failures that retrying cannot fix: the same bytes would fail the same way; upload another file instead. */
const FINAL_FAILURES = new Set(['mime_mismatch', 'unsupported_media_type', 'too_large']);

export const canRetry = (a: Artifact) => a.status === 'failed' && !FINAL_FAILURES.has(a.error?.code ?? '');

export function ArtifactTable({ items, filtered, busyKey, onRetry, onRemove }: ArtifactTableProps) {
  if (items.length === 0) {
    return (
      <div className="table-empty">
        <DatasetIcon size={18} />
        <p>{filtered ? 'No file has this status.' : 'No files yet. Drop some above, or choose them.'}</p>
      </div>
    );
  }
  return (
    <div className="table-wrap">
      <table className="table artifact-table">
        <caption className="visually-hidden">Files in this dataset</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
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
                {a.key}
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
                {canRetry(a) ? (
                  <Button size="sm" variant="ghost" busy={busyKey === a.key} onClick={() => onRetry(a)}>
                    Retry<span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
                {a.status === 'ready' || a.status === 'failed' ? (
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
