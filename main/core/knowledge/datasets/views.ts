import type { z } from 'zod';
import type { Artifact, Dataset } from '../../../../shared/operations/datasets.js';
import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';
import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import type { AuthedContext } from '../../platform/context.js';

/** Whether an embedding model is configured: ready files then report their vectors' progress. */
export const embeds = (ctx: AuthedContext): boolean => ctx.runtime.embedding() !== undefined;

/** A dataset as `caller` sees it; `canWrite` from `mayWrite`'s rule (owner or admin). */
export function datasetView(row: DatasetRecord, canWrite: boolean): z.input<typeof Dataset> {
  const { id, kb_id, name, description, artifact_count, created_at, updated_at } = row;
  return { id, kb_id, name, description, artifact_count, can_write: canWrite, created_at, updated_at };
}

/** Where a ready file's vectors are; null when no embedding model is configured (`embeds`) or it is not ready. */
function embeddingOf(row: ArtifactRecord, embeds: boolean): Artifact['embedding'] {
  if (!embeds || row.status !== 'ready') return null;
  const done = Math.min(row.embedded_chunks, row.chunk_count);
  const state = row.embedding_error !== null ? 'failed' : done >= row.chunk_count ? 'ready' : 'embedding';
  return { state, done, total: row.chunk_count, error: row.embedding_error };
}

/** `embeds`: whether an embedding model is configured, so that ready files report their vectors. */
export function artifactView(row: ArtifactRecord, embeds = false): Artifact {
  const { id, key, filename, mime_type, size, upload_id, status, progress, chunk_count, created_at, updated_at } = row;
  return {
    id,
    key,
    filename,
    mime_type,
    size,
    upload_id,
    status,
    progress,
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    chunk_count,
    embedding: embeddingOf(row, embeds),
    source: row.folder_id && row.source_path ? { folder_id: row.folder_id, path: row.source_path } : null,
    created_at,
    updated_at,
  };
}
