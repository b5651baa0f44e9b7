import type { KeywordOptions } from './plan.js';
import { reciprocalRankFusion } from './fusion.js';
import { clampLimit, hydrate, snippetTerms } from './hits.js';
import { keywordRanking, searchKeyword, snippetTokensOf } from './keyword.js';
import type { KeywordThread } from './keyword-thread.js';
import { toVector } from './vector.js';
import type { Embedder, RetrievalLog, RetrievalSource, SearchHit, SearchQuery } from './types.js';

export interface HybridOptions extends KeywordOptions {
  /** How many candidates each ranking (keyword, vector) contributes to the fusion. Default max(limit × 3, 30). */
  candidates?: number;
  /** Reciprocal-rank-fusion constant. Default 60. */
  rrfK?: number;
  log?: RetrievalLog;
  /** Where the keyword half runs while this thread searches the vectors (keyword-thread.ts); without it, one after the other here. */
  keywords?: KeywordThread | undefined;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Hybrid search: keyword ranking fused by reciprocal rank with the nearest vectors of the
 * question's embedding, when an embedder is given and the vector index is there (sqlite-vec
 * loaded, chunks embedded with a model). Otherwise — or if embedding the question fails — the
 * keyword ranking alone. Scores are the fused RRF scores (or bm25 when keyword-only).
 */
export async function searchHybrid(source: RetrievalSource, query: SearchQuery, embed?: Embedder, options: HybridOptions = {}): Promise<SearchHit[]> {
  return (await searchRanked(source, query, embed, options)).hits;
}

/** Whether hybrid ranking can run here: chunks embedded into a vector index this connection can read. */
export function vectorsReady(source: RetrievalSource): boolean {
  const { chunks } = source;
  return chunks.vectorIndex() !== undefined && chunks.vectorsAvailable() && chunks.hasVectorTable();
}

/** {@link searchHybrid}, saying which ranking it used (keyword when vectors could not take part). */
export async function searchRanked(
  source: RetrievalSource,
  query: SearchQuery,
  embed?: Embedder,
  options: HybridOptions = {},
): Promise<{ hits: SearchHit[]; mode: 'keyword' | 'hybrid' }> {
  const limit = clampLimit(query.limit);
  if (limit === 0) return { hits: [], mode: embed ? 'hybrid' : 'keyword' };
  const { chunks } = source;
  const info = embed ? chunks.vectorIndex() : undefined;
  if (!embed || !info || !vectorsReady(source)) return { hits: searchKeyword(source, query, options), mode: 'keyword' };
  const log = options.log ?? ((line: string) => console.warn(line));

  const candidates = Math.max(limit, clampLimit(options.candidates ?? Math.max(limit * 3, 30)));
  const ranges = chunks.kbRanges(query.kb_ids);
  // The keyword half starts in its thread first, so that it runs while this one embeds the question and searches the graphs.
  const inThread = ranges.length > 0 ? options.keywords?.rank(query.kb_ids, query.text, candidates, options) : undefined;
  let nearest: number[] = [];
  let vectorRanked = false;
  if (ranges.length > 0 && query.text.trim() !== '') {
    try {
      const [values] = await embed([query.text]);
      const vector = toVector(values, info.dimensions);
      if (!vector) {
        log(`[retrieval] the embedding of the question does not match the vector index (${info.model}, ${info.dimensions} dimensions): keyword ranking only`);
      } else {
        vectorRanked = true;
        nearest = ranges
          .flatMap((r) => chunks.knn(vector, r.slot, candidates))
          .sort((a, b) => a.distance - b.distance || b.id - a.id)
          .slice(0, candidates)
          .map((n) => n.id);
      }
    } catch (error) {
      log(`[retrieval] embedding the question failed (${errorText(error)}): keyword ranking only`);
    }
  }
  const keyword = (await inThread) ?? keywordRanking(chunks, query.kb_ids, query.text, candidates, options);
  const terms = snippetTerms(keyword.plan);
  const snippetTokens = snippetTokensOf(options);
  // No vector ranking to fuse (the embedding failed or does not fit): the keyword ranking as it is.
  if (!vectorRanked) return { hits: hydrate(chunks, keyword.ranked, terms, snippetTokens, limit), mode: 'keyword' };
  const fused = reciprocalRankFusion([keyword.ranked.map((r) => r.id), nearest], options.rrfK ?? 60);
  return { hits: hydrate(chunks, fused, terms, snippetTokens, limit), mode: 'hybrid' };
}
