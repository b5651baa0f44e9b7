import type { Artifact } from '../../../shared/operations/datasets.js';
import type { ArtifactRow } from '../../db/repositories/artifacts.js';
import type { DatasetRow } from '../../db/repositories/datasets.js';

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

export function artifactView(row: ArtifactRow): Artifact {
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
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
