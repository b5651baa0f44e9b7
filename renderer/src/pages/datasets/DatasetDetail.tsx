import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import type { Artifact } from '../../../../shared/operations/datasets.js';
import { client } from '../../api/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { SelectField } from '../../ui/Field.js';
import { Page, Section } from '../../ui/Page.js';
import { statusLabel } from './ArtifactStatus.js';
import { ArtifactTable } from './ArtifactTable.js';
import { DeleteDatasetDialog } from './DeleteDatasetDialog.js';
import { RenameDatasetDialog } from './RenameDatasetDialog.js';
import { DatasetSearch } from './DatasetSearch.js';
import { DropZone } from './DropZone.js';
import { errorText } from '../../ui/error-text.js';
import { followArtifacts, followUpload, reportUploadError } from './follow-uploads.js';
import { datasetHref } from './selection.js';
import { uploadFiles, type FileUpload } from './upload.js';
import { UploadList } from './UploadList.js';
import { useArtifacts, type SourceFilter, type StatusFilter } from './useArtifacts.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { chatWithDataset } from '../chat/chat-with.js';
import { FolderSection } from './folders/FolderSection.js';
import { folderName } from './folders/folder-format.js';
import { useFolders } from './folders/useFolders.js';
import { acceptOf, useUploadLimits } from './useUploadLimits.js';
import { filesCsv } from './files-csv.js';
import { fileStem, saveFile } from '../../ui/save-file.js';

type Dataset = OutputOf<Operations['datasets.get']>;

const FILTERS: StatusFilter[] = ['all', 'pending', 'uploading', 'processing', 'ready', 'failed'];

/** One dataset: add files, follow them to ready, retry or remove failures, delete it all. */
export function DatasetDetail({ dataset, onChanged, canManageFolders }: { dataset: Dataset; onChanged: () => void; canManageFolders: boolean }) {
  const intl = useIntl();
  const [filter, setFilter] = useState<StatusFilter>('all');
  const [source, setSource] = useState<SourceFilter>('all');
  /** The file whose removal waits for confirmation. */
  const [removing, setRemoving] = useState<Artifact | null>(null);
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [openingKey, setOpeningKey] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const limits = useUploadLimits();
  // A folder's files come and go as it is scanned or changed on disk: the file list follows its counts.
  const folders = useFolders(dataset.id, () => artifacts.refresh());
  const folderPaths = new Map(folders.folders.map((f) => [f.id, f.path]));
  // A folder no longer followed is no filter any more.
  const sourceFilter = source === 'all' || source === 'uploads' || folderPaths.has(source) ? source : 'all';
  // The service filters by source, so every page holds only the files asked for.
  const artifacts = useArtifacts(dataset.kb_id, filter, uploading || folders.busy, sourceFilter);
  const writable = dataset.can_write;

  // A tab cannot send the Bearer token: the service signs a short-lived link to the file instead.
  async function open(artifact: Artifact) {
    setOpeningKey(artifact.key);
    setActionError(null);
    try {
      const { url } = await client.call('artifacts.link', { kb_id: dataset.kb_id, key: artifact.key });
      window.open(url, '_blank', 'noopener,noreferrer');
    } catch (error) {
      setActionError(`${artifact.key}: ${errorText(error)}`);
    } finally {
      setOpeningKey(null);
    }
  }

  // Every file of the dataset, whatever the filters show: the list a person wants to keep or share.
  async function exportCsv() {
    setExporting(true);
    setActionError(null);
    try {
      const files: Artifact[] = [];
      let cursor: string | null = null;
      do {
        const page: OutputOf<Operations['artifacts.list']> = await client.call('artifacts.list', { kb_id: dataset.kb_id, limit: 200, ...(cursor ? { cursor } : {}) });
        files.push(...page.data);
        cursor = page.next_cursor;
      } while (cursor);
      saveFile(`${fileStem(dataset.name, 'dataset')}.csv`, filesCsv(files), 'text/csv;charset=utf-8');
    } catch (error) {
      setActionError(errorText(error));
    } finally {
      setExporting(false);
    }
  }

  // The upload goes on when the page is closed; follow-uploads then says how it ended.
  async function upload(files: File[]) {
    setUploading(true);
    setUploadError(null);
    let last: FileUpload[] = [];
    try {
      await uploadFiles(
        dataset.kb_id,
        files,
        (uploads) => {
          last = uploads;
          setUploads(uploads);
        },
        intl,
        limits,
      );
    } catch (error) {
      setUploadError(errorText(error));
      reportUploadError(dataset, error);
    } finally {
      setUploading(false);
      artifacts.refresh();
      followUpload(dataset, last);
    }
  }

  async function act(artifact: Artifact, operation: 'artifacts.retry' | 'artifacts.cancel' | 'artifacts.delete') {
    setBusyKey(artifact.key);
    setActionError(null);
    try {
      await client.call(operation, { kb_id: dataset.kb_id, key: artifact.key });
      if (operation === 'artifacts.retry') followArtifacts(dataset, [artifact.key]);
    } catch (error) {
      setActionError(`${artifact.key}: ${errorText(error)}`);
    } finally {
      setBusyKey(null);
      artifacts.refresh();
    }
  }

  return (
    <Page
      title={dataset.name}
      description={dataset.description ?? intl.formatMessage({ id: 'datasets.detail.description' })}
      actions={
        <div className="header-actions">
          <a className="btn btn-secondary btn-md" href={datasetHref(null)}>
            {intl.formatMessage({ id: 'datasets.common.allDatasets' })}
          </a>
          <Button variant="primary" onClick={() => chatWithDataset(dataset.id)}>
            {intl.formatMessage({ id: 'datasets.detail.chat' })}
          </Button>
          <Button busy={exporting} onClick={() => void exportCsv()}>
            {intl.formatMessage({ id: 'datasets.detail.exportCsv' })}
          </Button>
          {writable ? (
            <>
              <Button onClick={() => setRenaming(true)}>{intl.formatMessage({ id: 'datasets.detail.rename' })}</Button>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                {intl.formatMessage({ id: 'datasets.common.deleteDataset' })}
              </Button>
            </>
          ) : null}
        </div>
      }
    >
      {writable ? (
        <Section title={intl.formatMessage({ id: 'datasets.detail.addFiles' })}>
          <DropZone onFiles={(files) => void upload(files)} busy={uploading} accept={acceptOf(limits)} maxFileBytes={limits?.max_file_bytes ?? null} />
          {uploadError ? <Alert tone="error" title={intl.formatMessage({ id: 'datasets.detail.uploadFailed' })}>{uploadError}</Alert> : null}
          <UploadList uploads={uploads} done={!uploading} onClear={() => setUploads([])} />
        </Section>
      ) : (
        <Alert tone="info">{intl.formatMessage({ id: 'datasets.detail.readOnly' })}</Alert>
      )}

      <FolderSection
        datasetId={dataset.id}
        folders={folders}
        canManage={writable && canManageFolders}
        shownFolder={sourceFilter === 'all' || sourceFilter === 'uploads' ? null : sourceFilter}
        onShowFiles={(id) => setSource(id ?? 'all')}
      />

      <Section
        title={intl.formatMessage({ id: 'datasets.detail.files' })}
        description={intl.formatMessage({ id: 'datasets.detail.filesDescription' })}
        actions={
          <div className="file-filters">
            {folders.folders.length > 0 ? (
              <SelectField label={intl.formatMessage({ id: 'datasets.detail.from' })} fieldClassName="inline-field" value={sourceFilter} onChange={(e) => setSource(e.target.value)}>
                <option value="all">{intl.formatMessage({ id: 'datasets.detail.everywhere' })}</option>
                <option value="uploads">{intl.formatMessage({ id: 'datasets.detail.uploads' })}</option>
                {folders.folders.map((f) => (
                  <option key={f.id} value={f.id}>
                    {folderName(f.path)}
                  </option>
                ))}
              </SelectField>
            ) : null}
            <SelectField label={intl.formatMessage({ id: 'datasets.detail.statusFilter' })} fieldClassName="inline-field" value={filter} onChange={(e) => setFilter(e.target.value as StatusFilter)}>
              {FILTERS.map((f) => (
                <option key={f} value={f}>
                  {f === 'all' ? intl.formatMessage({ id: 'datasets.detail.all' }) : statusLabel(intl, f)}
                </option>
              ))}
            </SelectField>
          </div>
        }
      >
        {actionError ? <Alert tone="error">{actionError}</Alert> : null}
        {artifacts.error ? <Alert tone="error" title={intl.formatMessage({ id: 'datasets.detail.filesFailed' })}>{artifacts.error}</Alert> : null}
        {artifacts.loading ? (
          <Skeleton shape="table" label={intl.formatMessage({ id: 'datasets.detail.loadingFiles' })} />
        ) : (
          <ArtifactTable
            items={artifacts.items}
            filtered={filter !== 'all' || sourceFilter !== 'all'}
            filteredEmpty={sourceFilter === 'all' ? undefined : intl.formatMessage({ id: 'datasets.detail.noMatch' })}
            folderPaths={folderPaths}
            busyKey={busyKey}
            canWrite={writable}
            openingKey={openingKey}
            onOpen={(a) => void open(a)}
            onRetry={(a) => void act(a, 'artifacts.retry')}
            onCancel={(a) => void act(a, 'artifacts.cancel')}
            onRemove={(a) => setRemoving(a)}
          />
        )}
        {artifacts.nextCursor ? (
          <div className="load-more">
            <Button busy={artifacts.loadingMore} onClick={artifacts.loadMore}>
              {intl.formatMessage({ id: 'datasets.detail.loadMore' })}
            </Button>
          </div>
        ) : null}
      </Section>

      <DatasetSearch datasetId={dataset.id} />

      {writable ? (
        <>
          <DeleteDatasetDialog dataset={dataset} open={deleting} onClose={() => setDeleting(false)} />
          <RenameDatasetDialog dataset={dataset} open={renaming} onClose={() => setRenaming(false)} onSaved={onChanged} />
        </>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={intl.formatMessage({ id: 'datasets.detail.removeTitle' })}
        confirmLabel={intl.formatMessage({ id: 'datasets.detail.removeConfirm' })}
        tone="danger"
        busy={removing !== null && busyKey === removing.key}
        error={null}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          void act(removing, 'artifacts.delete').then(() => setRemoving(null));
        }}
      >
        <p>
          <FormattedMessage id="datasets.detail.removeBody" values={{ key: removing?.key ?? '', b: (chunks) => <strong>{chunks}</strong> }} />
        </p>
      </ConfirmDialog>
    </Page>
  );
}
