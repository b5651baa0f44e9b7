import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Folder } from '../../../../../shared/operations/folders.js';
import { client } from '../../../api/index.js';
import { Alert } from '../../../ui/Alert.js';
import { Button } from '../../../ui/Button.js';
import { ConfirmDialog } from '../../../ui/Dialog.js';
import { errorText } from '../../../ui/error-text.js';
import { FolderIcon } from '../../../ui/icons.js';
import { Section } from '../../../ui/Page.js';
import { FolderCard } from './FolderCard.js';
import { folderName } from './folder-format.js';
import { FollowFolderForm } from './FollowFolderForm.js';
import type { FoldersState } from './useFolders.js';

export interface FolderSectionProps {
  datasetId: string;
  folders: FoldersState;
  /** Following, pausing and removing are an administrator's (the desktop owner is one). */
  canManage: boolean;
  /** The folder whose files the table shows, or null. */
  shownFolder: string | null;
  onShowFiles: (folderId: string | null) => void;
}

/** The folders a dataset follows, and following one more: a section of the dataset's page. */
export function FolderSection({ datasetId, folders, canManage, shownFolder, onShowFiles }: FolderSectionProps) {
  const intl = useIntl();
  const [adding, setAdding] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Folder | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const followButton = useRef<HTMLButtonElement>(null);

  // Without folders, and without the right to follow one, the section would only say "nothing here".
  if (!canManage && folders.folders.length === 0) return null;

  async function setStatus(folder: Folder, status: 'paused' | 'watching') {
    setBusyId(folder.id);
    setActionError(null);
    try {
      folders.put(await client.call('folders.update', { id: datasetId, folder_id: folder.id, status }));
    } catch (error) {
      setActionError(`${folder.path}: ${errorText(error)}`);
    } finally {
      setBusyId(null);
    }
  }

  async function remove(folder: Folder) {
    setBusyId(folder.id);
    setRemoveError(null);
    try {
      await client.call('folders.delete', { id: datasetId, folder_id: folder.id });
      if (shownFolder === folder.id) onShowFiles(null);
      folders.drop(folder.id);
      setRemoving(null);
    } catch (error) {
      setRemoveError(errorText(error));
    } finally {
      setBusyId(null);
    }
  }

  const closeForm = () => {
    setAdding(false);
    // Focus goes back where it came from, not to the top of the page.
    requestAnimationFrame(() => followButton.current?.focus());
  };

  return (
    <Section
      title={intl.formatMessage({ id: 'datasets.folders.title' })}
      description={intl.formatMessage({ id: 'datasets.folders.description' })}
      actions={
        canManage && !adding ? (
          <Button ref={followButton} className="folder-follow-open" icon={<FolderIcon />} onClick={() => setAdding(true)}>
            {intl.formatMessage({ id: 'datasets.folders.follow' })}
          </Button>
        ) : null
      }
    >
      {adding ? (
        <FollowFolderForm
          datasetId={datasetId}
          allowedRoots={folders.allowedRoots}
          onCancel={closeForm}
          onFollowed={(folder) => {
            folders.put(folder);
            closeForm();
          }}
        />
      ) : null}
      {folders.error ? <Alert tone="error" title={intl.formatMessage({ id: 'datasets.folders.loadFailed' })}>{folders.error}</Alert> : null}
      {actionError ? <Alert tone="error">{actionError}</Alert> : null}
      {folders.folders.length > 0 ? (
        <ul className="folder-list" aria-label={intl.formatMessage({ id: 'datasets.folders.title' })}>
          {folders.folders.map((folder) => (
            <FolderCard
              key={folder.id}
              folder={folder}
              canManage={canManage}
              busy={busyId === folder.id}
              showingFiles={shownFolder === folder.id}
              onPause={() => void setStatus(folder, 'paused')}
              onResume={() => void setStatus(folder, 'watching')}
              onRemove={() => {
                setRemoveError(null);
                setRemoving(folder);
              }}
              onShowFiles={() => onShowFiles(shownFolder === folder.id ? null : folder.id)}
            />
          ))}
        </ul>
      ) : !adding && !folders.loading ? (
        <p className="folder-none">{intl.formatMessage({ id: 'datasets.folders.none' })}</p>
      ) : null}

      <ConfirmDialog
        open={removing !== null}
        title={
          removing
            ? intl.formatMessage({ id: 'datasets.folders.removeTitle' }, { name: folderName(removing.path) })
            : intl.formatMessage({ id: 'datasets.folders.removeTitleAny' })
        }
        confirmLabel={intl.formatMessage({ id: 'datasets.folders.stopFollowing' })}
        tone="danger"
        busy={removing !== null && busyId === removing.id}
        error={removeError}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      >
        <p>
          <FormattedMessage id="datasets.folders.removeFiles" values={{ count: removing?.files.seen ?? 0 }} />
        </p>
        <p>
          <FormattedMessage id="datasets.folders.removeDisk" values={{ path: removing?.path ?? '', code: (chunks) => <code>{chunks}</code> }} />
        </p>
      </ConfirmDialog>
    </Section>
  );
}
