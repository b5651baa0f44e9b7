import type { Db } from '../connection.js';

export type DownloadStatusValue = 'queued' | 'downloading' | 'verifying' | 'complete' | 'failed' | 'cancelled';

export interface ModelDownloadRow {
  seq: number;
  id: string;
  url: string;
  file_name: string;
  status: DownloadStatusValue;
  bytes_done: number;
  bytes_total: number | null;
  sha256_expected: string | null;
  sha256_source: 'given' | 'server' | null;
  sha256: string | null;
  validator: string | null;
  error: string | null;
  resumes: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a running download changes about its row. */
export type DownloadPatch = Partial<Pick<ModelDownloadRow, 'file_name' | 'status' | 'bytes_done' | 'bytes_total' | 'sha256_expected' | 'sha256_source' | 'sha256' | 'validator' | 'error' | 'resumes'>>;

const PATCHABLE = ['file_name', 'status', 'bytes_done', 'bytes_total', 'sha256_expected', 'sha256_source', 'sha256', 'validator', 'error', 'resumes'] as const;

export function createModelDownloadsRepo(db: Db) {
  const byId = db.prepare<[string], ModelDownloadRow>('SELECT * FROM model_downloads WHERE id = ?');
  const all = db.prepare<[], ModelDownloadRow>('SELECT * FROM model_downloads ORDER BY seq DESC');
  const active = db.prepare<[], ModelDownloadRow>("SELECT * FROM model_downloads WHERE status IN ('queued', 'downloading', 'verifying') ORDER BY seq");
  const insert = db.prepare(
    `INSERT INTO model_downloads (id, url, file_name, status, sha256_expected, sha256_source, created_by, created_at, updated_at)
     VALUES (@id, @url, @file_name, 'queued', @sha256_expected, @sha256_source, @created_by, @now, @now)`,
  );

  return {
    get: (id: string) => byId.get(id),
    list: () => all.all(),
    /** Downloads not yet final, oldest first: what a start-up resumes. */
    active: () => active.all(),
    insert(row: { id: string; url: string; file_name: string; sha256_expected: string | null; sha256_source: 'given' | null; created_by: string | null; now: string }) {
      insert.run(row);
    },
    update(id: string, patch: DownloadPatch, now: string) {
      const sets = ['updated_at = @now'];
      const params: Record<string, unknown> = { id, now };
      for (const key of PATCHABLE) {
        if (patch[key] === undefined) continue;
        sets.push(`${key} = @${key}`);
        params[key] = patch[key];
      }
      db.prepare(`UPDATE model_downloads SET ${sets.join(', ')} WHERE id = @id`).run(params);
    },
  };
}

export type ModelDownloadsRepo = ReturnType<typeof createModelDownloadsRepo>;
