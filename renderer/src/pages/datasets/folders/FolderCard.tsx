import { useId } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { Folder } from '../../../../../shared/operations/folders.js';
import type { MessageId } from '../../../i18n/catalogues/index.js';
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

const COUNTS: Array<{ key: keyof Folder['files']; id: MessageId }> = [
  { key: 'seen', id: 'datasets.folders.count.seen' },
  { key: 'ready', id: 'datasets.folders.count.ready' },
  { key: 'pending', id: 'datasets.folders.count.pending' },
  { key: 'failed', id: 'datasets.folders.count.failed' },
  { key: 'skipped', id: 'datasets.folders.count.skipped' },
];

/** One followed folder: where it is, whether it is in sync, its files by state, and what can be done. */
export function FolderCard({ folder, canManage, busy, showingFiles, onPause, onResume, onRemove, onShowFiles }: FolderCardProps) {
  const intl = useIntl();
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
        <span className={`badge ${STATUS_TONES[folder.status]}`.trim()}>{intl.formatMessage({ id: STATUS_LABELS[folder.status] })}</span>
      </div>

      <p className={folder.status === 'error' ? 'folder-follow-text folder-error' : 'folder-follow-text'} role={folder.status === 'error' ? 'alert' : undefined}>
        {folder.status === 'watching' && folder.watch === 'polling' && folder.error?.detail ? intl.formatMessage({ id: 'datasets.folders.withDetail' }, { text: followText(intl, folder), detail: folder.error.detail }) : followText(intl, folder)}
      </p>

      {reading && files.seen > 0 ? (
        <ProgressBar
          value={scanShare(folder)}
          label={intl.formatMessage({ id: 'datasets.folders.readLabel' }, { name })}
          text={intl.formatMessage({ id: 'datasets.folders.readProgress' }, { read: files.ready + files.failed, seen: files.seen })}
        />
      ) : null}

      <dl className="folder-counts" aria-label={intl.formatMessage({ id: 'datasets.folders.countsLabel' }, { name })}>
        {COUNTS.map(({ key, id }) => (
          <div key={key} className={`folder-count folder-count-${key}`}>
            <dt>{intl.formatMessage({ id })}</dt>
            <dd>{intl.formatNumber(files[key])}</dd>
          </div>
        ))}
      </dl>

      {folder.skipped.length > 0 ? (
        <details className="folder-skipped">
          <summary>
            <FormattedMessage id="datasets.folders.whySkipped" values={{ count: folder.skipped.length }} />
          </summary>
          <ul>
            {folder.skipped.map((s) => (
              <li key={s.path}>
                <FormattedMessage id="datasets.folders.skippedReason" values={{ path: s.path, reason: s.reason, code: (chunks) => <code>{chunks}</code> }} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}

      <div className="folder-foot">
        <p className="folder-meta">
          {folder.include.length > 0 ? <span>{intl.formatMessage({ id: 'datasets.folders.only' }, { globs: folder.include.join(', ') })} </span> : null}
          {folder.exclude.length > 0 ? <span>{intl.formatMessage({ id: 'datasets.folders.skipping' }, { globs: folder.exclude.join(', ') })} </span> : null}
          {folder.last_scan_at ? (
            <span>
              <FormattedMessage id="datasets.folders.lastChecked" values={{ time: <Time iso={folder.last_scan_at} /> }} />
            </span>
          ) : null}
        </p>
        <div className="folder-actions">
          <Button size="sm" variant="ghost" aria-pressed={showingFiles} onClick={onShowFiles}>
            {intl.formatMessage({ id: showingFiles ? 'datasets.folders.showingFiles' : 'datasets.folders.showFiles' })}
            <span className="visually-hidden">{intl.formatMessage({ id: 'datasets.folders.hiddenName' }, { name })}</span>
          </Button>
          {canManage ? (
            <>
              {folder.status === 'paused' ? (
                <Button size="sm" busy={busy} onClick={onResume}>
                  {intl.formatMessage({ id: 'datasets.folders.resume' })}
                  <span className="visually-hidden"> {name}</span>
                </Button>
              ) : folder.status === 'error' ? (
                <Button size="sm" busy={busy} onClick={onResume}>
                  {intl.formatMessage({ id: 'datasets.folders.checkAgain' })}
                  <span className="visually-hidden"> {name}</span>
                </Button>
              ) : (
                <Button size="sm" busy={busy} onClick={onPause}>
                  {intl.formatMessage({ id: 'datasets.folders.pause' })}
                  <span className="visually-hidden"> {name}</span>
                </Button>
              )}
              <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={busy} onClick={onRemove}>
                {intl.formatMessage({ id: 'datasets.folders.stopFollowing' })}
                <span className="visually-hidden"> {name}</span>
              </Button>
            </>
          ) : null}
        </div>
      </div>
    </li>
  );
}
