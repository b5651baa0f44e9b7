import type { IntlShape } from 'react-intl';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';
import { failureText } from './ArtifactStatus.js';
import { formatBytes } from './format.js';
import type { UploadLimits } from './useUploadLimits.js';

/** One picked file on its way into a knowledge base, as the upload list shows it. */
export interface FileUpload {
  key: string;
  size: number;
  sent: number;
  /**
   * `refused`: never sent, because it breaks a known limit (empty, too large) or the service refused
   * it when the upload began; `failed`: its sending broke off.
   */
  state: 'sending' | 'sent' | 'failed' | 'refused';
  error: string | null;
}

/** Why `file` cannot be sent at all, or null: known before a byte leaves, so it is said at once. */
function refusal(file: File, limits: UploadLimits | null, intl: IntlShape): string | null {
  if (file.size === 0) return intl.formatMessage({ id: 'datasets.uploads.emptyFile' });
  if (limits && file.size > limits.max_file_bytes) {
    return intl.formatMessage({ id: 'datasets.uploads.tooLarge' }, { size: formatBytes(file.size, intl.locale), limit: formatBytes(limits.max_file_bytes, intl.locale) });
  }
  return null;
}

/**
 * Keys are unique within a knowledge base and within an upload: a second file with the same name
 * gets ` (2)` before its extension rather than replacing the first or failing the whole upload.
 */
export function uniqueKeys(files: readonly File[]): string[] {
  const seen = new Set<string>();
  return files.map((file) => {
    const name = file.name.trim() || 'file';
    let key = name;
    for (let n = 2; seen.has(key); n++) key = name.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext}`);
    seen.add(key);
    return key;
  });
}

/**
 * Sends `files` through one multi-part upload: `uploads.create` signs a URL per part, each part is
 * sent as a slice of the File (PUT over HTTP, bytes over IPC on the desktop), then
 * `uploads.complete` starts processing. `onProgress` hears every change, for the progress bars.
 * Files breaking a known limit are refused up front (the service would reject the whole upload for
 * an empty one), and so are those the service refuses when the upload begins: none is reported sent.
 */
export async function uploadFiles(
  kbId: string,
  files: readonly File[],
  onProgress: (uploads: FileUpload[]) => void,
  intl: IntlShape,
  limits: UploadLimits | null = null,
): Promise<void> {
  const keys = uniqueKeys(files);
  const uploads: FileUpload[] = files.map((file, i) => {
    const refused = refusal(file, limits, intl);
    return { key: keys[i] ?? file.name, size: file.size, sent: 0, state: refused === null ? 'sending' : 'refused', error: refused };
  });
  const report = () => onProgress(uploads.map((u) => ({ ...u })));
  report();

  const sendable = files.map((file, i) => ({ file, upload: uploads[i] })).filter((f): f is { file: File; upload: FileUpload } => f.upload?.state === 'sending');
  if (sendable.length === 0) return;

  let created;
  try {
    created = await client.call('uploads.create', {
      kb_id: kbId,
      files: sendable.map(({ file, upload }) => ({ key: upload.key, filename: file.name, size: file.size, ...(file.type ? { mime_type: file.type } : {}) })),
    });
  } catch (error) {
    for (const { upload } of sendable) Object.assign(upload, { state: 'failed', error: errorText(error) });
    report();
    return;
  }

  await Promise.all(
    sendable.map(async ({ file, upload }) => {
      const signed = created.files.find((f) => f.key === upload.key);
      if (!signed) return;
      // A file the service refused at once (over a limit changed since the page read it) has no part to send.
      const artifact = created.artifacts.find((a) => a.key === upload.key);
      if (artifact?.status === 'failed') {
        Object.assign(upload, { state: 'refused', error: failureText(intl, artifact) });
        return report();
      }
      try {
        for (const part of signed.urls) {
          const start = (part.part - 1) * signed.part_size;
          await client.uploadPart(part.url, file.slice(start, start + part.size)).catch((error: unknown) => {
            throw new Error(intl.formatMessage({ id: 'datasets.uploads.partFailed' }, { part: part.part, error: errorText(error) }));
          });
          upload.sent += part.size;
          report();
        }
        upload.state = 'sent';
      } catch (error) {
        Object.assign(upload, { state: 'failed', error: errorText(error) });
      }
      report();
    }),
  );

  // Complete even when a part failed: the service fails those files with the reason, so the table
  // says what happened instead of leaving them uploading until the upload expires.
  await client.call('uploads.complete', { upload_id: created.upload_id });
}
