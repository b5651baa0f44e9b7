import { ProgressBar } from '../../ui/ProgressBar.js';
import { formatBytes } from './format.js';
import type { FileUpload } from './upload.js';

/** The files of the current upload, each with its bytes sent; the table below takes over once sent. */
export function UploadList({ uploads }: { uploads: FileUpload[] }) {
  if (uploads.length === 0) return null;
  return (
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
  );
}
