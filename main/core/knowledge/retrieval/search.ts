/**
 * Retrieval over the chunks of some knowledge bases: FTS5 keyword ranking (bm25), plus vectors
 * (sqlite-vec) when an embedding model is configured, fused by reciprocal rank. One file per step:
 *
 * - plan.ts: which of a question's terms select, boost, nudge or drop (why: see there);
 * - keyword.ts: running a plan over each knowledge base's id range;
 * - snippets.ts, hits.ts: the passage window and the hit rows;
 * - fusion.ts, hybrid.ts: reciprocal rank fusion of keyword and nearest vectors;
 * - embedding-index.ts: the write side, embedding chunks that have no vector yet.
 *
 * This module is the entry the rest of the core imports.
 */
export { bm25Idf, planKeyword, questionWords, querySpans, WORD_CHAR, type KeywordOptions, type KeywordPlan, type PlannedTerm } from './plan.js';
export { searchKeyword } from './keyword.js';
export { snippetOf } from './snippets.js';
export { reciprocalRankFusion } from './fusion.js';
export { KeywordThread } from './keyword-thread.js';
export { searchHybrid, searchRanked, vectorsReady, type HybridOptions } from './hybrid.js';
export { indexEmbeddings, type IndexEmbeddingsOptions } from './embedding-index.js';
export type { Embedder, RetrievalLog, RetrievalSource } from './types.js';
