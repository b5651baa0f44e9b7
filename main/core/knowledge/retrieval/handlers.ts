import type { ParsedInputOf } from '../../../../shared/operations/define.js';
import type { search as searchOperation } from '../../../../shared/operations/search.js';
import type { AuthedSlice } from '../../platform/context.js';
import { assertDatasets } from '../datasets/access.js';
import { retrieve, retrievalEnv } from './retrieve.js';
import type { HandlersFor } from '../../platform/operation-handlers.js';

/** `POST /search`: the datasets' best passages for a question, over the one retrieval function. */
export async function searchDatasets(ctx: AuthedSlice<'repos', 'embedding' | 'log' | 'keywords'>, input: ParsedInputOf<typeof searchOperation>) {
  const started = performance.now();
  const ids = [...new Set(input.dataset_ids)];
  assertDatasets(ctx, ids);
  const { hits, mode, vectors } = await retrieve(retrievalEnv(ctx.repos, ctx.runtime), ids, input.query, input.limit, input.mode);
  return {
    data: hits.map((hit) => ({
      chunk_id: hit.chunk_id,
      dataset_id: hit.dataset_id,
      kb_id: hit.kb_id,
      artifact_id: hit.artifact_id,
      artifact_key: hit.artifact_key,
      score: hit.score,
      snippet: hit.snippet,
      text: hit.text,
      location: hit.location,
    })),
    mode,
    vectors,
    took_ms: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** `GET /search/embedding`: the embedding model in effect and how far the files' vectors are. */
export function embeddingStatus(ctx: AuthedSlice<'repos' | 'config', 'embedding'>) {
  const model = ctx.runtime.embedding();
  return {
    setting: ctx.config().retrieval.embedding_model,
    model: model ? { id: model.id, name: model.label, source: model.source } : null,
    vectors: model ? ctx.repos.artifacts.embeddingCoverage() : null,
  };
}

/** This domain's operations, by name (joined with every other domain's in service/handlers.ts). */
export const searchHandlers: HandlersFor<'search'> = {
  'search.query': searchDatasets,
  'search.embedding': embeddingStatus,
};
