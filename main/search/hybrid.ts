import { reciprocalRankFusion } from './fusion.js';
import { clampLimit, hydrate, snippetTerms } from './hits.js';
import type { KbRange, VectorIndexInfo } from '../db/repositories/chunks.js';
import { errorText } from '../../shared/errors.js';
import { searchKeyword, snippetTokensOf, startKeywordRanking, type KeywordRanking, type KeywordSearchOptions } from './keyword/keyword.js';
import { toVector } from './vector.js';
import type { Embedder, RetrievalLog, RetrievalSource, SearchHit, SearchQuery } from './types.js';

export interface HybridOptions extends KeywordSearchOptions {
  /** How many candidates each ranking (keyword, vector) contributes to the fusion. Default max(limit × 3, 30). */
  candidates?: number;
  /** Reciprocal-rank-fusion constant. Default 60. */
  rrfK?: number;
  log?: RetrievalLog;
}

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
  // The keyword half goes to its thread first, to start while this one embeds the question and
  // searches the graphs; this one then takes the keyword queries the thread has not yet taken.
  const keywordHalf = startKeywordRanking(chunks, ranges, query.text, candidates, options);
  let nearest: number[] | undefined;
  let keyword: KeywordRanking;
  try {
    if (ranges.length > 0 && query.text.trim() !== '') nearest = await nearestIds(chunks, info, ranges, query.text, embed, candidates, log);
  } finally {
    keyword = keywordHalf();
  }
  const terms = snippetTerms(keyword.plan);
  const snippetTokens = snippetTokensOf(options);
  // No vector ranking to fuse (the embedding failed or does not fit): the keyword ranking as it is.
  if (!nearest) return { hits: hydrate(chunks, keyword.ranked, terms, snippetTokens, limit), mode: 'keyword' };
  const fused = reciprocalRankFusion([keyword.ranked.map((r) => r.id), nearest], options.rrfK ?? 60);
  return { hits: hydrate(chunks, fused, terms, snippetTokens, limit), mode: 'hybrid' };
}

/** The `candidates` nearest chunks to the question's embedding, nearest first; undefined (said in the log) when embedding fails or does not fit the index. */
async function nearestIds(
  chunks: RetrievalSource['chunks'],
  info: VectorIndexInfo,
  ranges: readonly KbRange[],
  text: string,
  embed: Embedder,
  candidates: number,
  log: RetrievalLog,
): Promise<number[] | undefined> {
  try {
    const [values] = await embed([text]);
    const vector = toVector(values, info.dimensions);
    if (!vector) {
      log(`[retrieval] the embedding of the question does not match the vector index (${info.model}, ${info.dimensions} dimensions): keyword ranking only`);
      return undefined;
    }
    return chunks.knn(vector, ranges.map((r) => r.slot), candidates).map((n) => n.id);
  } catch (error) {
    log(`[retrieval] embedding the question failed (${errorText(error)}): keyword ranking only`);
    return undefined;
  }
}
