import type { z } from 'zod';
import type { Report } from '../../../shared/operations/reports.js';
import type { SqlDb as Db } from '../sql.js';

/** A report as stored: the API's fields (its error as `error_detail`), with who asked for it. */
export type ReportRecord = Omit<z.output<typeof Report>, 'error'> & { user_id: string | null; error_detail: string | null };

export function createReportsRepo(db: Db) {
  const byId = db.prepare<[string], ReportRecord>('SELECT * FROM reports WHERE id = ?');
  const insert = db.prepare(
    "INSERT INTO reports (id, dataset_id, user_id, format, status, created_at, updated_at) VALUES (@id, @dataset_id, @user_id, @format, 'processing', @now, @now)",
  );
  const finish = db.prepare(
    'UPDATE reports SET status = @status, content = @content, summary_model_id = @summary_model_id, error_detail = @error_detail, updated_at = @now WHERE id = @id',
  );
  // Chunk texts of one knowledge base, a bounded sample for term statistics.
  const sample = db.prepare<[string, number], { text: string }>('SELECT text FROM chunks WHERE kb_id = ? ORDER BY id LIMIT ?');
  const firstChunk = db.prepare<[string], { text: string }>('SELECT text FROM chunks WHERE artifact_id = ? ORDER BY ord LIMIT 1');
  const globalSample = db.prepare<[number], { text: string }>('SELECT text FROM chunks ORDER BY random() LIMIT ?');
  const reads = {
    get: (id: string) => byId.get(id),
    chunkTexts: (kbId: string, limit: number) => sample.all(kbId, limit).map((r) => r.text),
    globalChunkTexts: (limit: number) => globalSample.all(limit).map((r) => r.text),
    firstChunkText: (artifactId: string) => firstChunk.get(artifactId)?.text ?? '',
  };
  const writes = {
    insert: (row: Pick<ReportRecord, 'id' | 'dataset_id' | 'format'> & { user_id: string; now: string }) => insert.run(row),
    finish: (id: string, r: Pick<ReportRecord, 'content' | 'summary_model_id' | 'error_detail'> & { status: 'ready' | 'failed'; now: string }) => finish.run({ id, ...r }),
  };
  return { ...reads, ...writes };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;
