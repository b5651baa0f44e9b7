import type { z } from 'zod';
import type { Artifact, Dataset } from '../../../../shared/operations/datasets.js';
import type { ArtifactRecord } from '../../../db/repositories/artifacts.js';
import type { DatasetRecord } from '../../../db/repositories/datasets.js';
import type { ContextSlice } from '../../platform/context.js';

/** Whether an embedding model is configured: ready files then report their vectors' progress. */
export const embeds = (ctx: ContextSlice<never, 'embedding'>): boolean => ctx.runtime.embedding() !== undefined;

/** A dataset as `caller` sees it (the output schema leaves its internal columns behind); `canWrite` from `mayWrite`'s rule (owner or admin). */
export function datasetView(row: DatasetRecord, canWrite: boolean): z.input<typeof Dataset> {
  return { ...row, can_write: canWrite };
}

/** Where a ready file's vectors are; null when no embedding model is configured (`embeds`) or it is not ready. */
function embeddingOf(row: ArtifactRecord, embeds: boolean): Artifact['embedding'] {
  if (!embeds || row.status !== 'ready') return null;
  const done = Math.min(row.embedded_chunks, row.chunk_count);
  const state = row.embedding_error !== null ? 'failed' : done >= row.chunk_count ? 'ready' : 'embedding';
  return { state, done, total: row.chunk_count, error: row.embedding_error };
}

/**
 * An artifact as the API shows it (the output schema leaves its internal columns behind); `embeds`:
 * whether an embedding model is configured, so that ready files report their vectors.
 */
export function artifactView(row: ArtifactRecord, embeds = false): z.input<typeof Artifact> {
  return {
    ...row,
    error: row.error_code ? { code: row.error_code, detail: row.error_detail ?? '' } : null,
    embedding: embeddingOf(row, embeds),
    source: row.folder_id && row.source_path ? { folder_id: row.folder_id, path: row.source_path } : null,
  };
}
