import type { ModelDownload } from '../../../shared/operations/model-downloads.js';
import type { SqlDb as Db } from '../sql.js';

export type DownloadStatusValue = ModelDownload['status'];

/** A download as stored: the API's fields but the live retry time, plus its order, validator and who asked. */
export type ModelDownloadRecord = Omit<ModelDownload, 'retry_at'> & {
  seq: number;
  /** The server's validator (ETag) of the bytes so far: a resume sends it as If-Range. */
  validator: string | null;
  created_by: string | null;
};

/** What a running download changes about its record. */
export type DownloadPatch = Partial<Pick<ModelDownloadRecord, 'file_name' | 'status' | 'bytes_done' | 'bytes_total' | 'sha256_expected' | 'sha256_source' | 'sha256' | 'validator' | 'error' | 'resumes'>>;

const PATCHABLE = ['file_name', 'status', 'bytes_done', 'bytes_total', 'sha256_expected', 'sha256_source', 'sha256', 'validator', 'error', 'resumes'] as const;

export function createModelDownloadsRepo(db: Db) {
  const byId = db.prepare<[string], ModelDownloadRecord>('SELECT * FROM model_downloads WHERE id = ?');
  const all = db.prepare<[], ModelDownloadRecord>('SELECT * FROM model_downloads ORDER BY seq DESC');
  const active = db.prepare<[], ModelDownloadRecord>("SELECT * FROM model_downloads WHERE status IN ('queued', 'downloading', 'verifying') ORDER BY seq");
  const insert = db.prepare(
    `INSERT INTO model_downloads (id, url, file_name, status, sha256_expected, sha256_source, created_by, created_at, updated_at)
     VALUES (@id, @url, @file_name, 'queued', @sha256_expected, @sha256_source, @created_by, @now, @now)`,
  );

  const reads = {
    get: (id: string) => byId.get(id),
    list: () => all.all(),
    /** Downloads not yet final, oldest first: what a start-up resumes. */
    active: () => active.all(),
  };
  const writes = {
    insert(row: Pick<ModelDownloadRecord, 'id' | 'url' | 'file_name' | 'sha256_expected' | 'created_by'> & { sha256_source: 'given' | null; now: string }) {
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
  return { ...reads, ...writes };
}

export type ModelDownloadsRepo = ReturnType<typeof createModelDownloadsRepo>;
