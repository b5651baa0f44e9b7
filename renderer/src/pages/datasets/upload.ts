import type { IntlShape } from 'react-intl';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';

/** One picked file on its way into a knowledge base, as the upload list shows it. */
export interface FileUpload {
  key: string;
  size: number;
  sent: number;
  state: 'sending' | 'sent' | 'failed';
  error: string | null;
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
 * Empty files are refused up front: the service would reject the whole upload for one of them.
 */
export async function uploadFiles(kbId: string, files: readonly File[], onProgress: (uploads: FileUpload[]) => void, intl: IntlShape): Promise<void> {
  const keys = uniqueKeys(files);
  const uploads: FileUpload[] = files.map((file, i) => ({
    key: keys[i] ?? file.name,
    size: file.size,
    sent: 0,
    state: file.size === 0 ? 'failed' : 'sending',
    error: file.size === 0 ? intl.formatMessage({ id: 'datasets.uploads.emptyFile' }) : null,
  }));
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
