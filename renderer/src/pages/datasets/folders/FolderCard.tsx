import { useId } from 'react';
import type { Folder } from '../../../../../shared/operations/folders.js';
import { Button } from '../../../ui/Button.js';
import { FolderIcon } from '../../../ui/icons.js';
import { ProgressBar } from '../../../ui/ProgressBar.js';
import { Time } from '../../../ui/Time.js';
import { STATUS_LABELS, STATUS_TONES, folderName, followText, scanShare } from './folder-format.js';

export interface FolderCardProps {
  folder: Folder;
  canManage: boolean;
  /** Pause or resume under way for this folder. */
  busy: boolean;
  /** The file table shows only this folder's files. */
  showingFiles: boolean;
  onPause: () => void;
  onResume: () => void;
  onRemove: () => void;
  onShowFiles: () => void;
}

const COUNTS: Array<{ key: keyof Folder['files']; label: string }> = [
  { key: 'seen', label: 'Found' },
  { key: 'ready', label: 'Ready' },
  { key: 'pending', label: 'In progress' },
  { key: 'failed', label: 'Failed' },
  { key: 'skipped', label: 'Skipped' },
];

/** One followed folder: where it is, whether it is in sync, its files by state, and what can be done. */
export function FolderCard({ folder, canManage, busy, showingFiles, onPause, onResume, onRemove, onShowFiles }: FolderCardProps) {
  const titleId = useId();
  const name = folderName(folder.path);
  const { files } = folder;
  const reading = folder.status === 'scanning' || (folder.status === 'watching' && files.pending > 0);
  return (
    <li className={`folder-card folder-${folder.status}`} aria-labelledby={titleId}>
      <div className="folder-head">
        <span className="folder-icon" aria-hidden="true">
          <FolderIcon size={18} />
        </span>
        <div className="folder-title">
          <h3 id={titleId} className="folder-name">
            {name}
          </h3>
          <p className="folder-path" title={folder.path}>
            {folder.path}
          </p>
        </div>
        <span className={`badge ${STATUS_TONES[folder.status]}`.trim()}>{STATUS_LABELS[folder.status]}</span>
      </div>

      <p className={folder.status === 'error' ? 'folder-follow-text folder-error' : 'folder-follow-text'} role={folder.status === 'error' ? 'alert' : undefined}>
        {folder.status === 'watching' && folder.watch === 'polling' && folder.error?.detail ? `${followText(folder)} ${folder.error.detail}` : followText(folder)}
      </p>

      {reading && files.seen > 0 ? (
        <ProgressBar value={scanShare(folder)} label={`${name}: files read`} text={`${files.ready + files.failed} of ${files.seen} files read`} />
      ) : null}

      <dl className="folder-counts" aria-label={`${name}: files`}>
        {COUNTS.map(({ key, label }) => (
          <div key={key} className={`folder-count folder-count-${key}`}>
            <dt>{label}</dt>
            <dd>{files[key].toLocaleString()}</dd>
          </div>
        ))}
      </dl>

      {folder.skipped.length > 0 ? (
        <details className="folder-skipped">
          <summary>
            Why {folder.skipped.length === 1 ? 'a file was' : 'files were'} skipped
          </summary>
          <ul>
            {folder.skipped.map((s) => (
              <li key={s.path}>
                <code>{s.path}</code>: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <div className="folder-foot">
        <p className="folder-meta">
          {folder.include.length > 0 ? <span>Only {folder.include.join(', ')}. </span> : null}
          {folder.exclude.length > 0 ? <span>Skipping {folder.exclude.join(', ')}. </span> : null}
          {folder.last_scan_at ? (
            <span>
              Last checked <Time iso={folder.last_scan_at} />
            </span>
          ) : null}
        </p>
        <div className="folder-actions">
          <Button size="sm" variant="ghost" aria-pressed={showingFiles} onClick={onShowFiles}>
            {showingFiles ? 'Showing its files' : 'Show its files'}
            <span className="visually-hidden"> ({name})</span>
          </Button>
          {canManage ? (
            <>
              {folder.status === 'paused' ? (
                <Button size="sm" busy={busy} onClick={onResume}>
                  Resume<span className="visually-hidden"> {name}</span>
                </Button>
              ) : folder.status === 'error' ? (
                <Button size="sm" busy={busy} onClick={onResume}>
                  Check again<span className="visually-hidden"> {name}</span>
                </Button>
              ) : (
                <Button size="sm" busy={busy} onClick={onPause}>
                  Pause<span className="visually-hidden"> {name}</span>
                </Button>
              )}
              <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={busy} onClick={onRemove}>
                Stop following<span className="visually-hidden"> {name}</span>
              </Button>
            </>
          ) : null}
        </div>
      </div>
    </li>
  );
}
