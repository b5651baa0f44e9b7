import type { Folder } from '../../../../shared/operations/folders.js';
import type { FolderRecord } from '../../../db/repositories/folders.js';
import type { Repositories } from '../../../db/repositories/index.js';

/** A folder as the API shows it, its counts read from its artifacts; `pollSeconds` is the watchers' interval. */
export function folderView(repos: Repositories, row: FolderRecord, pollSeconds: number | null): Folder {
  const counts = repos.folders.counts(row.id);
  const { id, dataset_id, path, include, exclude, status, watch, skipped, created_at, last_scan_at } = row;
  return {
    id,
    dataset_id,
    path,
    include,
    exclude,
    status,
    files: { seen: counts.total + row.skipped_count, ready: counts.ready, failed: counts.failed, pending: counts.pending, skipped: row.skipped_count },
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    watch,
    poll_seconds: watch === 'polling' ? pollSeconds : null,
    skipped,
    created_at,
    last_scan_at,
  };
}
