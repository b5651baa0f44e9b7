import type { Artifact } from '../../../../shared/operations/datasets.js';
import type { ArtifactRow } from '../../../db/repositories/artifacts.js';
import type { DatasetRow } from '../../../db/repositories/datasets.js';
import type { AuthedContext } from '../../platform/context.js';

/** Whether an embedding model is configured: ready files then report their vectors' progress. */
export const embeds = (ctx: AuthedContext): boolean => ctx.runtime.embedding() !== undefined;

/** A dataset as `caller` sees it; `canWrite` from `mayWrite`'s rule (owner or admin). */
export function datasetView(row: DatasetRow, canWrite: boolean) {
  return {
    id: row.id,
    kb_id: row.kb_id,
    name: row.name,
    description: row.description,
    artifact_count: row.artifact_count,
    can_write: canWrite,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Where a ready file's vectors are; null when no embedding model is configured (`embeds`) or it is not ready. */
function embeddingOf(row: ArtifactRow, embeds: boolean): Artifact['embedding'] {
  if (!embeds || row.status !== 'ready') return null;
  const done = Math.min(row.embedded_chunks, row.chunk_count);
  const state = row.embedding_error !== null ? 'failed' : done >= row.chunk_count ? 'ready' : 'embedding';
  return { state, done, total: row.chunk_count, error: row.embedding_error };
}

/** `embeds`: whether an embedding model is configured, so that ready files report their vectors. */
export function artifactView(row: ArtifactRow, embeds = false): Artifact {
  return {
    id: row.id,
    key: row.key,
    filename: row.filename,
    mime_type: row.mime_type,
    size: row.size,
    upload_id: row.upload_id,
    status: row.status,
    progress: row.progress,
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    chunk_count: row.chunk_count,
    embedding: embeddingOf(row, embeds),
    source: row.folder_id && row.source_path ? { folder_id: row.folder_id, path: row.source_path } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
