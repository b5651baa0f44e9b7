import type { z } from 'zod';
import type { Folder } from '../../../../shared/operations/folders.js';
import type { FolderRecord } from '../../../db/repositories/folders.js';
import type { Repositories } from '../../../db/repositories/index.js';

/** A folder as the API shows it (the output schema leaves its internal columns behind), its counts read from its artifacts; `pollSeconds` is the watchers' interval. */
export function folderView(repos: Repositories, row: FolderRecord, pollSeconds: number | null): z.input<typeof Folder> {
  const counts = repos.folders.counts(row.id);
  return {
    ...row,
    files: { seen: counts.total + row.skipped_count, ready: counts.ready, failed: counts.failed, pending: counts.pending, skipped: row.skipped_count },
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    poll_seconds: row.watch === 'polling' ? pollSeconds : null,
  };
}
