import { basename } from 'node:path';
import OpenAI from 'openai';
import type { Config } from '../../../../shared/config.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { FoundFile } from '../../models/local/discovery.js';
import type { LocalModels } from '../../models/local/registry.js';
import type { SecretBox } from '../../platform/secrets/secret-box.js';
import { embeddingPrefixes, type EmbeddingPrefixes } from './embedding-prefixes.js';
import type { Embedder, EmbeddingModel } from '../../../search/index.js';

export type { EmbeddingModel };

/** Where the embedding model comes from: the repositories, the configuration, the local models. */
export interface EmbeddingSources {
  repos: Repositories;
  config: () => Config;
  secrets: SecretBox;
  local?: LocalModels | undefined;
}

/**
 * A model with its family's query and passage prefixes applied (nomic, e5, bge know theirs). The
 * family joins the index's name: vectors made with other prefixes are not comparable, so a change
 * rebuilds the index.
 */
export function withPrefixes(
  model: Omit<EmbeddingModel, 'embed' | 'embedQuery'>,
  embed: Embedder,
  prefixes: EmbeddingPrefixes | undefined,
): EmbeddingModel {
  if (!prefixes) return { ...model, embed, embedQuery: embed };
  const prefixed = (prefix: string): Embedder => (prefix ? (texts) => embed(texts.map((t) => prefix + t)) : embed);
  return { ...model, name: `${model.name}+${prefixes.family}`, embed: prefixed(prefixes.passage), embedQuery: prefixed(prefixes.query) };
}

/**
 * A local GGUF embedding model (found on this machine or added by path), run by llama.cpp: hybrid
 * search with no network. Undefined when the file is gone or is not an embedding model.
 */
function localEmbeddingModel(local: LocalModels, file: FoundFile | undefined, id: string, source: EmbeddingModel['source']): EmbeddingModel | undefined {
  const header = file?.header;
  if (!file || !header?.pooling || file.error) return undefined;
  const path = file.path;
  return withPrefixes(
    // The file (its name on disk and size) identifies the vectors: another file rebuilds the index.
    // Not the listed name, which changes when a twin appears (names are made unique); not the
    // folder, so the model shipped with a newer version of the app keeps its vectors.
    { name: `gguf:${basename(path)}:${file.size_bytes}`, id, label: file.name, source },
    (texts) => local.engine.embed(path, header, texts),
    embeddingPrefixes([header.basename, header.name, file.path, file.name]),
  );
}

const isEmbedding = (f: FoundFile): boolean => f.header?.pooling === true && !f.header.projector && f.error === null;

/**
 * What `auto` picks from the last scan: the model bundled with the app, else an embedding GGUF in
 * `<data-dir>/models` (a download from the catalogue); the first by path when there are several,
 * so the choice is stable. Models in other apps' folders are not taken unasked.
 */
export function automaticEmbeddingFile(local: LocalModels): { file: FoundFile; source: 'bundled' | 'data_dir' } | undefined {
  const files = local.files().filter(isEmbedding).sort((a, b) => a.path.localeCompare(b.path));
  const bundled = files.find((f) => f.found_in === 'bundled');
  if (bundled) return { file: bundled, source: 'bundled' };
  const own = files.find((f) => f.found_in === 'data_dir');
  return own ? { file: own, source: 'data_dir' } : undefined;
}

/**
 * The embedding model in effect (`[retrieval] embedding_model`): empty or `auto` finds a local one
 * (`automaticEmbeddingFile`), `none` is keyword-only, an id names an OpenAI-compatible model called
 * through the official SDK or a local GGUF embedding model. Undefined when there is none or it
 * cannot embed.
 */
export function embeddingModel(sources: EmbeddingSources): EmbeddingModel | undefined {
  const { repos, config, secrets, local } = sources;
  const id = config().retrieval.embedding_model;
  if (id === 'none') return undefined;
  if (id === '' || id === 'auto') {
    const found = local ? automaticEmbeddingFile(local) : undefined;
    return found && local ? localEmbeddingModel(local, found.file, found.file.id, found.source) : undefined;
  }
  const row = repos.models.get(id);
  if (!row) return local ? localEmbeddingModel(local, local.byId(id), id, 'configured') : undefined;
  if (row.provider === 'llama_cpp') return local ? localEmbeddingModel(local, local.byPath(row.model), id, 'configured') : undefined;
  if (row.provider !== 'openai_compatible' || !row.endpoint_url) return undefined;
  const client = new OpenAI({ baseURL: row.endpoint_url, apiKey: row.api_key_secret ? secrets.open(row.api_key_secret) : 'not-needed', maxRetries: 1, timeout: 60_000 });
  return withPrefixes(
    { name: row.model, id, label: row.name, source: 'configured' },
    async (texts) => {
      const res = await client.embeddings.create({ model: row.model, input: texts, encoding_format: 'float' });
      return [...res.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
    // A server's model name says the family as well (Ollama's `nomic-embed-text`, …).
    embeddingPrefixes([row.model, row.name]),
  );
}
