import { useIntl } from 'react-intl';
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
  /** Stops a file's processing (it ends cancelled, to be retried). */
  onCancel: (artifact: Artifact) => void;
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
  const intl = useIntl();
  if (!artifact.source) return null;
  const path = folderPaths?.get(artifact.source.folder_id);
  return (
    <span
      className="badge folder-mark"
      title={path ? intl.formatMessage({ id: 'datasets.files.fromFolderTitle' }, { path }) : intl.formatMessage({ id: 'datasets.files.fromAFolderTitle' })}
    >
      <FolderIcon size={12} />
      <span className="visually-hidden">{intl.formatMessage({ id: 'datasets.files.fromFolder' })} </span>
      <span className="folder-mark-name">{path ? folderName(path) : intl.formatMessage({ id: 'datasets.files.folderFallback' })}</span>
    </span>
  );
}

export function ArtifactTable({ items, filtered, busyKey, canWrite, openingKey, onOpen, onRetry, onCancel, onRemove, folderPaths, filteredEmpty }: ArtifactTableProps) {
  const intl = useIntl();
  return (
    <DataTable
      caption={intl.formatMessage({ id: 'datasets.files.caption' })}
      className="artifact-table"
      rows={items}
      rowKey={(a) => a.id}
      empty={
        <TableEmpty icon={<DatasetIcon size={18} />}>
          {filtered
            ? (filteredEmpty ?? intl.formatMessage({ id: 'datasets.files.emptyFiltered' }))
            : intl.formatMessage({ id: canWrite ? 'datasets.files.emptyWritable' : 'datasets.files.empty' })}
        </TableEmpty>
      }
      name={{
        header: intl.formatMessage({ id: 'datasets.files.column.file' }),
        className: 'artifact-key',
        cell: (a) => (
          <>
            {canOpen(a) ? (
              <button type="button" className={/\s/.test(a.key) ? 'artifact-open' : 'artifact-open is-unspaced'} aria-busy={openingKey === a.key || undefined} title={intl.formatMessage({ id: 'datasets.files.openTitle' }, { key: a.key })} onClick={() => onOpen(a)}>
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
        {
          id: 'type',
          header: intl.formatMessage({ id: 'datasets.files.column.type' }),
          narrow: 'hide',
          cell: (a) => <span title={a.mime_type ?? undefined}>{shortType(intl, a.mime_type, a.filename)}</span>,
        },
        { id: 'size', header: intl.formatMessage({ id: 'datasets.files.column.size' }), narrow: 'hide', numeric: true, cell: (a) => formatBytes(a.size, intl.locale) },
        { id: 'status', header: intl.formatMessage({ id: 'datasets.files.column.status' }), cell: (a) => <ArtifactStatus artifact={a} /> },
        {
          id: 'chunks',
          header: intl.formatMessage({ id: 'datasets.files.column.chunks' }),
          narrow: 'hide',
          numeric: true,
          cell: (a) => (a.status === 'ready' ? intl.formatNumber(a.chunk_count) : <span className="muted">{intl.formatMessage({ id: 'datasets.files.noChunks' })}</span>),
        },
        { id: 'updated', header: intl.formatMessage({ id: 'datasets.files.column.updated' }), narrow: 'hide', cell: (a) => <Time iso={a.updated_at} /> },
      ]}
      actions={
        canWrite
          ? (a) => (
              <>
                {a.status === 'processing' ? (
                  <Button size="sm" variant="ghost" busy={busyKey === a.key} onClick={() => onCancel(a)}>
                    {intl.formatMessage({ id: 'datasets.files.cancel' })}
                    <span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
                {canRetry(a) ? (
                  <Button size="sm" variant="ghost" busy={busyKey === a.key} onClick={() => onRetry(a)}>
                    {intl.formatMessage({ id: 'datasets.files.retry' })}
                    <span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
                {/* A followed file comes back with the next change on disk: it leaves by the folder's globs, or with the folder. */}
                {(a.status === 'ready' || a.status === 'failed') && !a.source ? (
                  <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={busyKey === a.key} onClick={() => onRemove(a)}>
                    {intl.formatMessage({ id: 'datasets.files.remove' })}
                    <span className="visually-hidden"> {a.key}</span>
                  </Button>
                ) : null}
              </>
            )
          : undefined
      }
    />
  );
}
