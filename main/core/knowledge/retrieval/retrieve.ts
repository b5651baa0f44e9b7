import type { Repositories } from '../../../db/repositories/index.js';
import { ServiceError } from '../../../../shared/errors.js';
import { searchRanked, vectorsReady, type Embedder } from './search.js';
import type { SearchHit } from './types.js';
import type { Logger } from '../../platform/logger.js';
import type { KeywordThread } from './keyword-thread.js';
import type { Runtime } from '../../platform/context.js';

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

/** The retrieval environment of the running service (every search goes through it). */
export const retrievalEnv = (repos: Repositories, runtime: Pick<Runtime, 'embedding' | 'log' | 'keywords'>): RetrievalEnv => {
  const model = runtime.embedding();
  return { repos, embed: model?.embedQuery, model: model?.name, log: runtime.log, keywords: runtime.keywords };
};

/** Whether the vector index holds this model's vectors (after a model change it holds the old one's until the first new batch). */
const indexOf = (source: RetrievalEnv): boolean =>
  source.embed !== undefined && vectorsReady(source.repos) && (source.model === undefined || source.repos.chunks.vectorIndex()?.model === source.model);

/** A dataset to search: its id and the knowledge base behind it. */
export interface SearchableDataset {
  id: string;
  kb_id: string;
}

export interface Retrieval {
  /** Best first, each with the dataset it came from. */
  hits: Array<SearchHit & { dataset_id: string }>;
  mode: 'keyword' | 'hybrid';
  /** The searched datasets' ready chunks, and how many have the model's vectors; null with no embedding model. */
  vectors: { embedded: number; total: number } | null;
}

/**
 * The one retrieval function: the passages of some datasets most relevant to a question. `POST
 * /search`, chat grounding, the agents' `search_datasets` tool (and so comparisons, which ground
 * as chat does) all come here. `hybrid` asks for vectors and is a conflict when none can take part;
 * `auto` uses them once every ready chunk of the searched datasets has its vector, and answers
 * `keyword` until then (while a model embeds the files for the first time, or again after another
 * model was chosen): fusing with vectors of only some chunks would lift those few over better
 * keyword matches, so a partial vector ranking is used only when asked for (`hybrid`). `vectors`
 * says how far embedding is, so a caller knows why `auto` answered `keyword`.
 */
export async function retrieve(
  source: RetrievalEnv,
  datasets: readonly SearchableDataset[],
  text: string,
  limit: number,
  mode: 'auto' | 'keyword' | 'hybrid' = 'auto',
): Promise<Retrieval> {
  const ready = indexOf(source);
  if (mode === 'hybrid' && !ready) {
    throw new ServiceError(
      'conflict',
      source.embed
        ? 'Hybrid search needs the datasets embedded: the vector index is not ready yet.'
        : 'Hybrid search needs an embedding model: choose one in Settings → Models (or set [retrieval] embedding_model), or search with mode "keyword".',
    );
  }
  const byKb = new Map(datasets.map((d) => [d.kb_id, d.id]));
  const vectors = source.embed ? source.repos.artifacts.embeddingCoverage([...byKb.keys()]) : null;
  if (byKb.size === 0) return { hits: [], mode: mode === 'hybrid' ? 'hybrid' : 'keyword', vectors };
  const complete = vectors !== null && vectors.embedded >= vectors.total;
  const embed = mode === 'keyword' || !ready || (mode === 'auto' && !complete) ? undefined : source.embed;
  const { hits, mode: used } = await searchRanked(source.repos, { kb_ids: [...byKb.keys()], text, limit }, embed, {
    keywords: source.keywords,
    ...(source.log ? { log: (line: string) => source.log?.warn(line) } : {}),
  });
  return { hits: hits.flatMap((hit) => (byKb.has(hit.kb_id) ? [{ ...hit, dataset_id: byKb.get(hit.kb_id) as string }] : [])), mode: used, vectors };
}
