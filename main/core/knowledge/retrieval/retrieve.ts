import type { Repositories } from '../../../db/repositories/index.js';
import { rank, type RankMode, type Embedder, type EmbeddingModel, type KeywordThread, type SearchHit } from '../../../search/index.js';
import type { Logger } from '../../platform/logger.js';

/** What retrieval runs with: the repositories, the embedding model in effect, the log and the keyword thread. */
export interface RetrievalEnv {
  repos: Repositories;
  /** Embeds the question (with the model's query prefix). */
  embed: Embedder | undefined;
  /** The name the model's vectors are stored under: vectors of another model are not searched with this one's questions. */
  model?: string | undefined;
  log?: Logger | undefined;
  keywords?: KeywordThread | undefined;
}

/** What of the running service retrieval uses (the runtime has these). */
export interface RetrievalRuntime {
  embedding: () => EmbeddingModel | undefined;
  log: Logger;
  keywords: KeywordThread;
}

/** The retrieval environment of the running service (every search goes through it). */
export const retrievalEnv = (repos: Repositories, runtime: RetrievalRuntime): RetrievalEnv => {
  const model = runtime.embedding();
  return { repos, embed: model?.embedQuery, model: model?.name, log: runtime.log, keywords: runtime.keywords };
};

/** A dataset to search, by id (a record that carries its id will do; its knowledge base is looked up here). */
export type SearchableDataset = string | { id: string };

export interface Retrieval {
  /** Best first, each with the dataset it came from. */
  hits: Array<SearchHit & { dataset_id: string }>;
  mode: 'keyword' | 'hybrid';
  /** The searched datasets' ready chunks, and how many have the model's vectors; null with no embedding model. */
  vectors: { embedded: number; total: number } | null;
}

/**
 * The one retrieval function of the core: the passages of some datasets most relevant to a
 * question. `POST /search`, chat grounding, the agents' `search_datasets` tool (and so
 * comparisons, which ground as chat does) all come here. Datasets become knowledge bases here and
 * hits are given their dataset back here; the ranking is main/search's `rank` (modes: see there).
 * Callers have checked access; a dataset that is gone is left out.
 */
export async function retrieve(
  source: RetrievalEnv,
  datasets: readonly SearchableDataset[],
  text: string,
  limit: number,
  mode: RankMode = 'auto',
): Promise<Retrieval> {
  const datasetOfKb = new Map<string, string>();
  for (const dataset of datasets) {
    const id = typeof dataset === 'string' ? dataset : dataset.id;
    const kb = source.repos.datasets.get(id)?.kb_id;
    if (kb && !datasetOfKb.has(kb)) datasetOfKb.set(kb, id);
  }
  const log = source.log;
  const { hits, mode: used, vectors } = await rank(source.repos, {
    knowledgeBases: [...datasetOfKb.keys()],
    text,
    limit,
    mode,
    embed: source.embed,
    model: source.model,
    keywords: source.keywords,
    ...(log ? { log: (line: string) => log.warn(line) } : {}),
  });
  return { hits: hits.flatMap((hit) => (datasetOfKb.has(hit.kb_id) ? [{ ...hit, dataset_id: datasetOfKb.get(hit.kb_id) as string }] : [])), mode: used, vectors };
}
