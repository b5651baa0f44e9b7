import { useIntl, type IntlShape } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { ProgressBar } from '../../ui/ProgressBar.js';
import { formatBytes } from './format.js';
import type { FileUpload } from './upload.js';

export interface UploadListProps {
  uploads: FileUpload[];
  /** Whether the upload is over: the list can then be put away, the table below has taken over. */
  done: boolean;
  onClear: () => void;
}

/** The summary line: files sent and files refused are counted apart, a refused file never counts as sent. */
function summary(intl: IntlShape, uploads: readonly FileUpload[], done: boolean): string {
  const sent = uploads.filter((u) => u.state === 'sent').length;
  const refused = uploads.filter((u) => u.state === 'refused');
  if (refused.length === 0) return intl.formatMessage({ id: done ? 'datasets.uploads.done' : 'datasets.uploads.sending' }, { sent, count: uploads.length });
  const values = { sent, refused: refused.length, reason: refused[0]?.error ?? '' };
  return done
    ? intl.formatMessage({ id: 'datasets.uploads.doneRefused' }, { ...values, count: uploads.length })
    : intl.formatMessage({ id: 'datasets.uploads.sendingRefused' }, { ...values, count: uploads.length - refused.length });
}

/** The files of the current upload, each with its bytes sent, or why it was refused or not sent. */
export function UploadList({ uploads, done, onClear }: UploadListProps) {
  const intl = useIntl();
  if (uploads.length === 0) return null;
  return (
    <div className="upload">
      <div className="upload-header">
        <p className="upload-summary" role="status">
          {summary(intl, uploads, done)}
        </p>
        {done ? (
          <Button size="sm" variant="ghost" onClick={onClear}>
            {intl.formatMessage({ id: 'datasets.uploads.clear' })}
          </Button>
        ) : null}
      </div>
      <ul className="upload-list" aria-label={intl.formatMessage({ id: 'datasets.uploads.listLabel' })}>
        {uploads.map((u) => (
          <li key={u.key} className="upload-item">
            <span className="upload-name" title={u.key}>
              {u.key}
            </span>
            {u.state === 'refused' ? (
              <span className="status status-failed">{intl.formatMessage({ id: 'datasets.uploads.refused' }, { reason: u.error ?? '' })}</span>
            ) : u.state === 'failed' ? (
              <span className="status status-failed">{u.error}</span>
            ) : (
              <ProgressBar
                value={u.size === 0 ? 1 : u.sent / u.size}
                label={intl.formatMessage({ id: 'datasets.uploads.itemLabel' }, { key: u.key })}
                text={
                  u.state === 'sent'
                    ? intl.formatMessage({ id: 'datasets.uploads.sent' }, { size: formatBytes(u.size, intl.locale) })
                    : intl.formatMessage({ id: 'datasets.uploads.progress' }, { sent: formatBytes(u.sent, intl.locale), size: formatBytes(u.size, intl.locale) })
                }
              />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
