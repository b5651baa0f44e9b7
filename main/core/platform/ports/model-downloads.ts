import type { ModelDownloadRecord } from '../../../db/repositories/model-downloads.js';
import type { ParsedInputOf } from '../../../../shared/operations/define.js';
import type { createDownload } from '../../../../shared/operations/model-downloads.js';

/** A download as callers see it: its row, with the live byte count and when it tries again. */
export type DownloadView = ModelDownloadRecord & { retry_at: string | null };

/** Model files being downloaded into `<data-dir>/models/` (models/local/downloads/runner.ts). */
export interface ModelDownloadsPort {
  readonly modelsDir: string;
  list(): DownloadView[];
  get(id: string): DownloadView;
  start(input: ParsedInputOf<typeof createDownload>, userId: string | null): DownloadView;
  cancel(id: string): DownloadView;
}
