import type { Folder } from '../../../../shared/operations/folders.js';
import type { FolderRow } from '../../../db/repositories/folders.js';
import type { Repositories } from '../../../db/repositories/index.js';

/** A folder as the API shows it, its counts read from its artifacts; `pollSeconds` is the watchers' interval. */
export function folderView(repos: Repositories, row: FolderRow, pollSeconds: number | null): Folder {
  const counts = repos.folders.counts(row.id);
  return {
    id: row.id,
    dataset_id: row.dataset_id,
    path: row.path,
    include: JSON.parse(row.include) as string[],
    exclude: JSON.parse(row.exclude) as string[],
    status: row.status,
    files: { seen: counts.total + row.skipped_count, ready: counts.ready, failed: counts.failed, pending: counts.pending, skipped: row.skipped_count },
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    watch: row.watch,
    poll_seconds: row.watch === 'polling' ? pollSeconds : null,
    skipped: JSON.parse(row.skipped) as { path: string; reason: string }[],
    created_at: row.created_at,
    last_scan_at: row.last_scan_at,
  };
}
