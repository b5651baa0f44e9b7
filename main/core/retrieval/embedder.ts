import OpenAI from 'openai';
import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Embedder } from './search.js';

export interface EmbeddingModel {
  /** The embeddings model's own name; the vector index remembers it. */
  name: string;
  embed: Embedder;
}

/**
 * The configured embedding model (`[retrieval] embedding_model`), called through the official
 * OpenAI SDK; undefined when none is configured or it is not an OpenAI-compatible model.
 */
export function embeddingModel(repos: Repositories, config: () => Config, secrets: SecretBox): EmbeddingModel | undefined {
  const id = config().retrieval.embedding_model;
  if (!id) return undefined;
  const row = repos.models.get(id);
  if (!row || row.provider !== 'openai_compatible' || !row.endpoint_url) return undefined;
  const client = new OpenAI({ baseURL: row.endpoint_url, apiKey: row.api_key_secret ? secrets.open(row.api_key_secret) : 'not-needed', maxRetries: 1, timeout: 60_000 });
  return {
    name: row.model,
    embed: async (texts) => {
      const res = await client.embeddings.create({ model: row.model, input: texts, encoding_format: 'float' });
      return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
  };
}
