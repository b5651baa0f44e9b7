/**
 * One keyword search, top to bottom: plan it (layout.ts: the plan.ts plan laid out as FTS5
 * queries over id spans), run its queries (here, or shared with the keyword thread), and rank
 * their results (rescore.ts: merged, the nudging terms rescored). The keyword thread
 * (keyword-thread.ts) is only a transport: this file drives each step of a shared search, so a
 * search reads here from question to ranking.
 */
import type { ChunkReader, KbRange, ScoredId } from '../../db/repositories/chunks.js';
import { KEYWORD_DEFAULTS, type KeywordOptions } from './plan.js';
import { layOut, runPiece, type KeywordQuestion, type KeywordWork } from './layout.js';
import { rankResults, type KeywordRanking } from './rescore.js';
import type { KeywordThread, SharedSearch } from './keyword-thread.js';
import { clampLimit, hydrate, snippetTerms } from '../hits.js';
import type { RetrievalSource, SearchHit, SearchQuery } from '../types.js';

export type { KeywordRanking } from './rescore.js';

export interface KeywordSearchOptions extends KeywordOptions {
  /** The thread that shares keyword searches with this one; without it, every query runs here. */
  keywords?: Pick<KeywordThread, 'share'> | undefined;
}

/** The question as the keyword thread can be handed it: only the keyword options (plain numbers), as a caller's options may hold functions, which no other thread can receive. */
export function keywordQuestion(ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions): KeywordQuestion {
  const picked: Record<string, number> = {};
  for (const key of Object.keys(KEYWORD_DEFAULTS) as Array<keyof KeywordOptions>) {
    const value = options[key];
    if (typeof value === 'number') picked[key] = value;
  }
  return { ranges: [...ranges], text, limit, options: picked };
}

/** Runs every query of `work` here, one after the other. */
const runHere = (chunks: ChunkReader, work: KeywordWork): ScoredId[][] => work.pieces.map((piece) => runPiece(chunks, work.plan, piece));

/**
 * Runs the queries of `work` on both threads: first the caller takes every one the worker has
 * not (in order, the costliest first, while the worker does the same), then it collects the
 * worker's, running here any the worker stalled on or could not run.
 */
function runBoth(chunks: ChunkReader, work: KeywordWork, shared: SharedSearch): ScoredId[][] {
  const results = work.pieces.map((piece, i) => (shared.claim(i) ? runPiece(chunks, work.plan, piece) : undefined));
  return work.pieces.map((piece, i) => results[i] ?? shared.resultOf(i, piece) ?? runPiece(chunks, work.plan, piece));
}

/**
 * A search shared with the keyword thread: laid out by whichever thread came to it first, its
 * queries run by both. Undefined when the thread could not go on with it (the caller then runs it
 * alone). Ends the shared search however it goes, so the thread is free for the next.
 */
export function rankShared(chunks: ChunkReader, question: KeywordQuestion, shared: SharedSearch): KeywordRanking | undefined {
  try {
    const turn = shared.layout();
    if (turn === undefined) return undefined;
    const work = turn === 'here' ? layOut(chunks, question, true) : turn;
    // Laid out here but too large to hand over: every query runs here.
    const results = turn === 'here' && !shared.publish(work) ? runHere(chunks, work) : runBoth(chunks, work, shared);
    return rankResults(chunks, work, results);
  } finally {
    shared.end();
  }
}

/** The best `limit` chunks of the knowledge bases `ranges` for `text` by keywords, every query run here, one after the other. */
export function keywordRanking(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions): KeywordRanking {
  const work = layOut(chunks, keywordQuestion(ranges, text, limit, options), false);
  return rankResults(chunks, work, runHere(chunks, work));
}

/**
 * Starts a keyword ranking: hands it to the keyword thread when that is free (the worker may lay
 * it out, and both threads then run the queries). The function returned finishes it on this
 * thread, with the worker's part or all of it here; call it once. A hybrid search searches the
 * vectors in between.
 */
export function startKeywordRanking(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordSearchOptions): () => KeywordRanking {
  const question = keywordQuestion(ranges, text, limit, options);
  const shared = ranges.length > 0 ? options.keywords?.share(question) : undefined;
  return () => (shared && rankShared(chunks, question, shared)) ?? keywordRanking(chunks, ranges, text, limit, options);
}

/** The longest snippet `options` ask for. */
export const snippetTokensOf = (options: KeywordOptions) => options.snippetTokens ?? KEYWORD_DEFAULTS.snippetTokens;

/**
 * Keyword search: the best `query.limit` chunks of `query.kb_ids` for a natural-language
 * question, by bm25 over its informative terms. A question of stop words only finds nothing.
 */
export function searchKeyword(source: RetrievalSource, query: SearchQuery, options: KeywordSearchOptions = {}): SearchHit[] {
  const limit = clampLimit(query.limit);
  if (limit === 0) return [];
  const { chunks } = source;
  const { plan, ranked } = startKeywordRanking(chunks, chunks.kbRanges(query.kb_ids), query.text, limit, options)();
  return hydrate(chunks, ranked, snippetTerms(plan), snippetTokensOf(options), limit);
}
