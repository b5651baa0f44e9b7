import type { Db } from '../connection.js';

export interface ReportRow {
  id: string;
  dataset_id: string;
  user_id: string | null;
  format: 'markdown' | 'html';
  status: 'processing' | 'ready' | 'failed';
  content: string | null;
  summary_model_id: string | null;
  error_detail: string | null;
  created_at: string;
  updated_at: string;
}

export function createReportsRepo(db: Db) {
  const byId = db.prepare<[string], ReportRow>('SELECT * FROM reports WHERE id = ?');
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
  return {
    get: (id: string) => byId.get(id),
    insert: (row: { id: string; dataset_id: string; user_id: string; format: 'markdown' | 'html'; now: string }) => insert.run(row),
    finish: (id: string, r: { status: 'ready' | 'failed'; content: string | null; summary_model_id: string | null; error_detail: string | null; now: string }) =>
      finish.run({ id, ...r }),
    chunkTexts: (kbId: string, limit: number) => sample.all(kbId, limit).map((r) => r.text),
    globalChunkTexts: (limit: number) => globalSample.all(limit).map((r) => r.text),
    firstChunkText: (artifactId: string) => firstChunk.get(artifactId)?.text ?? '',
  };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;
