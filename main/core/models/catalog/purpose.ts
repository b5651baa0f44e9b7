import type { Model } from '../../../../shared/operations/models.js';
import type { ContextSlice } from '../../platform/context.js';

/** What a model is for: writing answers, or turning text into vectors. */
export type ModelPurpose = 'chat' | 'embedding';

/**
 * The names embedding models go by on the servers users register (OpenAI's `text-embedding-3-small`,
 * Ollama's `nomic-embed-text`, `mxbai-embed-large`, `all-minilm`, `bge-m3`, `e5-…`, `gte-…`): no
 * chat model is named so, and an OpenAI-compatible server has no standard way to say which is which.
 */
const EMBEDDING_NAME = /embed|minilm|(^|[^a-z])(bge|e5|gte)([^a-z]|$)/i;

/**
 * A local GGUF knows (its header has a pooling type); a registered remote model is an embedding
 * model when it is the configured `[retrieval] embedding_model` or its name says so. The built-in
 * model and Anthropic's only write answers.
 */
export function modelPurpose(ctx: ContextSlice<'config'>, model: Model): ModelPurpose {
  if (model.local) return model.local.purpose === 'embedding' ? 'embedding' : 'chat';
  if (model.provider !== 'openai_compatible') return 'chat';
  if (model.id === ctx.config().retrieval.embedding_model) return 'embedding';
  return EMBEDDING_NAME.test(model.model) || EMBEDDING_NAME.test(model.name) ? 'embedding' : 'chat';
}
