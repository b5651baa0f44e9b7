import type { Repositories } from '../../db/repositories/index.js';
import { ServiceError } from '../../../shared/errors.js';
import { searchRanked, vectorsReady, type Embedder } from './search.js';
import type { SearchHit } from './types.js';
import type { Logger } from '../logger.js';
import type { KeywordThread } from './keyword-thread.js';
import type { Runtime } from '../context.js';

/** What retrieval runs with: the repositories, the configured embedding model, the log and the keyword thread. */
export interface RetrievalEnv {
  repos: Repositories;
  embed: Embedder | undefined;
  log?: Logger | undefined;
  keywords?: KeywordThread | undefined;
}

/** The retrieval environment of the running service (every search goes through it). */
export const retrievalEnv = (repos: Repositories, runtime: Pick<Runtime, 'embedding' | 'log' | 'keywords'>): RetrievalEnv => ({
  repos,
  embed: runtime.embedding()?.embed,
  log: runtime.log,
  keywords: runtime.keywords,
});

/** A dataset to search: its id and the knowledge base behind it. */
export interface SearchableDataset {
  id: string;
  kb_id: string;
}

export interface Retrieval {
  /** Best first, each with the dataset it came from. */
  hits: Array<SearchHit & { dataset_id: string }>;
  mode: 'keyword' | 'hybrid';
}

/**
 * The one retrieval function: the passages of some datasets most relevant to a question. `POST
 * /search`, chat grounding, the agents' `search_datasets` tool (and so comparisons, which ground
 * as chat does) all come here. `hybrid` asks for vectors and is a conflict when none can take part;
 * `auto` uses them when they can.
 */
export async function retrieve(
  source: RetrievalEnv,
  datasets: readonly SearchableDataset[],
  text: string,
  limit: number,
  mode: 'auto' | 'keyword' | 'hybrid' = 'auto',
): Promise<Retrieval> {
  if (mode === 'hybrid' && (!source.embed || !vectorsReady(source.repos))) {
    throw new ServiceError(
      'conflict',
      source.embed
        ? 'Hybrid search needs the datasets embedded: the vector index is not ready yet.'
        : 'Hybrid search needs an embedding model: set [retrieval] embedding_model in the configuration, or search with mode "keyword".',
    );
  }
  const byKb = new Map(datasets.map((d) => [d.kb_id, d.id]));
  if (byKb.size === 0) return { hits: [], mode: mode === 'hybrid' ? 'hybrid' : 'keyword' };
  const embed = mode === 'keyword' ? undefined : source.embed;
  const { hits, mode: used } = await searchRanked(source.repos, { kb_ids: [...byKb.keys()], text, limit }, embed, {
    keywords: source.keywords,
    ...(source.log ? { log: (line: string) => source.log?.warn(line) } : {}),
  });
  return { hits: hits.flatMap((hit) => (byKb.has(hit.kb_id) ? [{ ...hit, dataset_id: byKb.get(hit.kb_id) as string }] : [])), mode: used };
}
