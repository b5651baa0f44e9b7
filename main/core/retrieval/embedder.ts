import OpenAI from 'openai';
import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { LocalModels } from '../local-models/registry.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Embedder } from './search.js';

export interface EmbeddingModel {
  /** The embeddings model's own name; the vector index remembers it. */
  name: string;
  embed: Embedder;
}

/**
 * A local GGUF embedding model (found on this machine or added by path), run by llama.cpp: hybrid
 * search with no network. Undefined when the file is gone or is not an embedding model.
 */
function localEmbeddingModel(local: LocalModels, path: string): EmbeddingModel | undefined {
  const file = local.byPath(path);
  const header = file?.header;
  if (!file || !header?.pooling) return undefined;
  return {
    // The file (name and size) identifies the vectors: another file rebuilds the index.
    name: `gguf:${file.name}:${file.size_bytes}`,
    embed: (texts) => local.engine.embed(path, header, texts),
  };
}

/**
 * The configured embedding model (`[retrieval] embedding_model`): an OpenAI-compatible model
 * called through the official SDK, or a local GGUF embedding model; undefined when none is
 * configured or it cannot embed.
 */
export function embeddingModel(repos: Repositories, config: () => Config, secrets: SecretBox, local?: LocalModels): EmbeddingModel | undefined {
  const id = config().retrieval.embedding_model;
  if (!id) return undefined;
  const row = repos.models.get(id);
  if (!row) {
    const found = local?.byId(id);
    return found && local ? localEmbeddingModel(local, found.path) : undefined;
  }
  if (row.provider === 'llama_cpp') return local ? localEmbeddingModel(local, row.model) : undefined;
  if (row.provider !== 'openai_compatible' || !row.endpoint_url) return undefined;
  const client = new OpenAI({ baseURL: row.endpoint_url, apiKey: row.api_key_secret ? secrets.open(row.api_key_secret) : 'not-needed', maxRetries: 1, timeout: 60_000 });
  return {
    name: row.model,
    embed: async (texts) => {
      const res = await client.embeddings.create({ model: row.model, input: texts, encoding_format: 'float' });
      return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
  };
}
