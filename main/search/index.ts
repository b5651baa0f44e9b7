/**
 * Search: ranking the chunks of some knowledge bases for a question. FTS5 keyword ranking (bm25,
 * with native/parley-fts.c where it loads), plus vectors (sqlite-vec, HNSW graphs) when the core
 * passes an embedder, fused by reciprocal rank. A package below the core: it reads the chunks
 * through main/db and never imports main/core (the core hands it what only the core knows: the
 * knowledge bases a caller may read, the embedding model). One file per step:
 *
 * - rank.ts: the one call the core ranks with (`rank`), choosing keyword or hybrid;
 * - keyword/: one search top-down in keyword.ts: its terms planned (plan.ts, why: see there) and
 *   laid out as queries over each knowledge base's id range (layout.ts), run here or shared with
 *   a thread of its own (keyword-thread.ts, a transport; keyword-worker.ts, its side), and ranked
 *   (rescore.ts);
 * - snippets.ts, hits.ts: the passage window and the hit rows;
 * - fusion.ts, hybrid.ts: reciprocal rank fusion of keyword and nearest vectors;
 * - embedding-index.ts: the write side, embedding chunks that have no vector yet.
 *
 * This module is the entry the core imports; text helpers (questionWords, WORD_CHAR, STOP_WORDS)
 * are exported for the features that split text as search does.
 */
export { rank, type RankMode, type RankRequest, type RankSource, type Ranking } from './rank.js';
export { bm25Idf, planKeyword, questionWords, querySpans, WORD_CHAR, type KeywordOptions, type KeywordPlan, type PlannedTerm } from './keyword/plan.js';
export { STOP_WORDS } from './keyword/stop-words.js';
export { searchKeyword } from './keyword/keyword.js';
export { snippetOf } from './snippets.js';
export { reciprocalRankFusion } from './fusion.js';
export { KeywordThread } from './keyword/keyword-thread.js';
export { searchHybrid, searchRanked, vectorsReady, type HybridOptions } from './hybrid.js';
export { indexEmbeddings, type IndexEmbeddingsOptions } from './embedding-index.js';
export type { Embedder, EmbeddingModel, RetrievalLog, RetrievalSource, SearchHit, SearchQuery } from './types.js';
