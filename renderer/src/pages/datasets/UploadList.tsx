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

/** The files of the current upload, each with its bytes sent. */
export function UploadList({ uploads, done, onClear }: UploadListProps) {
  if (uploads.length === 0) return null;
  const sent = uploads.filter((u) => u.state === 'sent').length;
  return (
    <div className="upload">
      <div className="upload-header">
        <p className="upload-summary" role="status">
          {done
            ? `${sent} of ${uploads.length} ${uploads.length === 1 ? 'file' : 'files'} sent; their processing shows in the table below.`
            : `Sending ${uploads.length} ${uploads.length === 1 ? 'file' : 'files'}…`}
        </p>
        {done ? (
          <Button size="sm" variant="ghost" onClick={onClear}>
            Clear
          </Button>
        ) : null}
      </div>
      <ul className="upload-list" aria-label="Uploading">
        {uploads.map((u) => (
          <li key={u.key} className="upload-item">
            <span className="upload-name">{u.key}</span>
            {u.state === 'failed' ? (
              <span className="status status-failed">{u.error}</span>
            ) : (
              <ProgressBar
                value={u.size === 0 ? 1 : u.sent / u.size}
                label={`Uploading ${u.key}`}
                text={u.state === 'sent' ? `${formatBytes(u.size)} sent` : `${formatBytes(u.sent)} of ${formatBytes(u.size)}`}
              />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
