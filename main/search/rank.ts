import { ServiceError } from '../../shared/errors.js';
import { searchRanked, vectorsReady } from './hybrid.js';
import type { KeywordThread } from './keyword/keyword-thread.js';
import type { Embedder, RetrievalLog, RetrievalSource, SearchHit } from './types.js';

/** What ranking reads: the chunks, and how far the knowledge bases' files are embedded. */
export interface RankSource extends RetrievalSource {
  artifacts: { embeddingCoverage(kbIds?: readonly string[]): { embedded: number; total: number } };
}

export type RankMode = 'auto' | 'keyword' | 'hybrid';

export interface RankRequest {
  /** The knowledge bases to search (the core has checked the caller may read them). */
  knowledgeBases: readonly string[];
  /** A natural-language question. */
  text: string;
  limit: number;
  mode?: RankMode | undefined;
  /** Embeds the question (with the model's query prefix): passed in by the core, which owns the models. None: keyword only. */
  embed?: Embedder | undefined;
  /** The name the model's vectors are stored under: vectors of another model are not searched with this one's questions. */
  model?: string | undefined;
  /** The thread keyword searches are shared with (none: each runs on the calling thread). */
  keywords?: KeywordThread | undefined;
  log?: RetrievalLog | undefined;
}

export interface Ranking {
  /** Best first. */
  hits: SearchHit[];
  mode: 'keyword' | 'hybrid';
  /** The searched knowledge bases' ready chunks, and how many have the model's vectors; null with no embedding model. */
  vectors: { embedded: number; total: number } | null;
}

/** Whether the vector index holds this model's vectors (after a model change it holds the old one's until the first new batch). */
const holdsModel = (source: RankSource, request: RankRequest): boolean =>
  request.embed !== undefined && vectorsReady(source) && (request.model === undefined || source.chunks.vectorIndex()?.model === request.model);

/**
 * The one call the core ranks passages with: the chunks of some knowledge bases most relevant to
 * a question. `hybrid` asks for vectors and is a conflict when none can take part; `auto` uses
 * them once every ready chunk of the searched knowledge bases has its vector, and answers
 * `keyword` until then (while a model embeds the files for the first time, or again after another
 * model was chosen): fusing with vectors of only some chunks would lift those few over better
 * keyword matches, so a partial vector ranking is used only when asked for (`hybrid`). `vectors`
 * says how far embedding is, so a caller knows why `auto` answered `keyword`.
 */
export async function rank(source: RankSource, request: RankRequest): Promise<Ranking> {
  const mode = request.mode ?? 'auto';
  const ready = holdsModel(source, request);
  if (mode === 'hybrid' && !ready) {
    throw new ServiceError(
      'conflict',
      !request.embed
        ? 'Hybrid search needs an embedding model: choose one in Settings → Models (or set [retrieval] embedding_model), or search with mode "keyword".'
        : !source.chunks.vectorsAvailable()
          ? 'Hybrid search needs vectors, which this database cannot store (a PostgreSQL server without the pgvector extension, or SQLite without sqlite-vec): search with mode "keyword".'
          : 'Hybrid search needs the datasets embedded: the vector index is not ready yet.',
    );
  }
  const kbIds = [...new Set(request.knowledgeBases)];
  const vectors = request.embed ? source.artifacts.embeddingCoverage(kbIds) : null;
  if (kbIds.length === 0) return { hits: [], mode: mode === 'hybrid' ? 'hybrid' : 'keyword', vectors };
  const complete = vectors !== null && vectors.embedded >= vectors.total;
  const embed = mode === 'keyword' || !ready || (mode === 'auto' && !complete) ? undefined : request.embed;
  const { hits, mode: used } = await searchRanked(source, { kb_ids: kbIds, text: request.text, limit: request.limit }, embed, {
    keywords: request.keywords,
    ...(request.log ? { log: request.log } : {}),
  });
  return { hits, mode: used, vectors };
}
