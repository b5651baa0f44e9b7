import type { Artifact } from '../../../../shared/operations/datasets.js';
import { Button } from '../../ui/Button.js';
import { DataTable, TableEmpty } from '../../ui/DataTable.js';
import { DatasetIcon, FolderIcon } from '../../ui/icons.js';
import { Time } from '../../ui/Time.js';
import { ArtifactStatus } from './ArtifactStatus.js';
import { formatBytes, shortType } from './format.js';
import { folderName } from './folders/folder-format.js';

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
  /** The followed folders' paths by id, to name where a file comes from. */
  folderPaths?: ReadonlyMap<string, string>;
  /** What the empty table says when a filter hides every file. */
  filteredEmpty?: string;
}

/** A file's bytes exist once its upload finished, whatever became of its processing. */
const canOpen = (a: Artifact) => a.status !== 'pending' && a.status !== 'uploading';

/** Failures that retrying cannot fix: the same bytes would fail the same way; upload another file instead. */
const FINAL_FAILURES = new Set(['mime_mismatch', 'unsupported_media_type', 'too_large']);

export const canRetry = (a: Artifact) => a.status === 'failed' && !FINAL_FAILURES.has(a.error?.code ?? '');

/** A file from a followed folder: its key is its path there; the mark says which folder, the name of the link stays the path. */
function FolderMark({ artifact, folderPaths }: { artifact: Artifact; folderPaths: ReadonlyMap<string, string> | undefined }) {
  if (!artifact.source) return null;
  const path = folderPaths?.get(artifact.source.folder_id);
  return (
    <span className="badge folder-mark" title={path ? `From the followed folder ${path}` : 'From a followed folder'}>
      <FolderIcon size={12} />
      <span className="visually-hidden">From folder </span>
      <span className="folder-mark-name">{path ? folderName(path) : 'folder'}</span>
    </span>
  );
}

export function ArtifactTable({ items, filtered, busyKey, canWrite, openingKey, onOpen, onRetry, onRemove, folderPaths, filteredEmpty }: ArtifactTableProps) {
  return (
    <DataTable
      caption="Files in this dataset"
      className="artifact-table"
      rows={items}
      rowKey={(a) => a.id}
      empty={
        <TableEmpty icon={<DatasetIcon size={18} />}>
          {filtered ? (filteredEmpty ?? 'No file has this status.') : canWrite ? 'No files yet. Drop some above, or choose them.' : 'No files yet.'}
        </TableEmpty>
      }
      name={{
        header: 'File',
        className: 'artifact-key',
        cell: (a) => (
          <>
            {canOpen(a) ? (
              <button type="button" className="artifact-open" aria-busy={openingKey === a.key || undefined} title={`Open ${a.key} in a new tab`} onClick={() => onOpen(a)}>
                {a.key}
              </button>
            ) : (
              a.key
            )}
            <FolderMark artifact={a} folderPaths={folderPaths} />
          </>
        ),
      }}
      columns={[
        { id: 'type', header: 'Type', narrow: 'hide', cell: (a) => <span title={a.mime_type ?? undefined}>{shortType(a.mime_type, a.filename)}</span> },
        { id: 'size', header: 'Size', narrow: 'hide', numeric: true, cell: (a) => formatBytes(a.size) },
        { id: 'status', header: 'Status', cell: (a) => <ArtifactStatus artifact={a} /> },
        { id: 'chunks', header: 'Chunks', narrow: 'hide', numeric: true, cell: (a) => (a.status === 'ready' ? a.chunk_count : <span className="muted">—</span>) },
        { id: 'updated', header: 'Updated', narrow: 'hide', cell: (a) => <Time iso={a.updated_at} /> },
      ]}
      actions={
        canWrite
          ? (a) => (
              <>
                {canRetry(a) ? (
                  <Button size="sm" variant="ghost" busy={busyKey === a.key} onClick={() => onRetry(a)}>
                    Retry<span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
                {/* A followed file comes back with the next change on disk: it leaves by the folder's globs, or with the folder. */}
                {(a.status === 'ready' || a.status === 'failed') && !a.source ? (
                  <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={busyKey === a.key} onClick={() => onRemove(a)}>
                    Remove<span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
              </>
            )
          : undefined
      }
    />
  );
}
