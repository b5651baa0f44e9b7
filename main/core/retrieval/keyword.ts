import type { ChunkReader, KbRange } from '../../db/repositories/chunks.js';
import { and, KEYWORD_DEFAULTS, or, planKeyword, querySpans, type KeywordOptions, type KeywordPlan } from './plan.js';
import { rescore } from './rescore.js';
import { clampLimit, hydrate, snippetTerms, type Scored } from './hits.js';
import type { RetrievalSource, SearchHit, SearchQuery } from './types.js';

/** Runs a plan over each query span; the best `limit`, best first. */
function runPlan(chunks: ChunkReader, plan: KeywordPlan, spans: readonly KbRange[], limit: number, o: Required<KeywordOptions>): Scored[] {
  if (plan.mode === 'none') return [];
  if (plan.mode === 'unranked') {
    const match = and(plan.select);
    const ids = spans.flatMap((r) => chunks.matchIds(match, r.lo, r.hi, limit));
    ids.sort((a, b) => b - a);
    return ids.slice(0, limit).map((id, rank) => ({ id, score: 1 / (rank + 1) }));
  }
  const select = plan.mode === 'ranked' ? or(plan.select) : and(plan.select);
  const boosted = plan.boost.length > 0 ? `(${select}) AND (${or(plan.boost)})` : undefined;
  const depth = plan.nudge.length > 0 ? Math.max(limit, o.nudgeDepth) : limit;
  const all: Scored[] = [];
  for (const r of spans) {
    const best = new Map<number, number>();
    for (const hit of chunks.rank(select, r.lo, r.hi, o.maxScoredPerKb, depth)) best.set(hit.id, hit.bm25);
    // With every term: exact for the chunks holding a booster too, so it replaces the selectors' score.
    if (boosted) for (const hit of chunks.rank(boosted, r.lo, r.hi, o.maxScoredPerKb, depth)) best.set(hit.id, hit.bm25);
    const scored = [...best].map(([id, bm25]) => ({ id, score: -bm25 }));
    all.push(...(plan.nudge.length > 0 ? rescore(chunks, scored, plan.nudge, limit, depth) : scored));
  }
  all.sort((a, b) => b.score - a.score || b.id - a.id);
  return all.slice(0, limit);
}

/** A keyword ranking: the best ids, and the plan (its terms make the snippets). Plain data: a worker thread sends it (keyword-thread.ts). */
export interface KeywordRanking {
  ranked: Scored[];
  plan: KeywordPlan;
}

/** The best `limit` chunks of the knowledge bases `ranges` for `text` by keywords, read through `chunks` (the repository, or a worker's reader). */
export function keywordRanking(chunks: ChunkReader, ranges: readonly KbRange[], text: string, limit: number, options: KeywordOptions): KeywordRanking {
  const o = { ...KEYWORD_DEFAULTS, ...options };
  const spans = querySpans(chunks, ranges);
  const plan = planKeyword(chunks, text, spans, o);
  return { plan, ranked: runPlan(chunks, plan, spans, limit, o) };
}

/** The longest snippet `options` ask for. */
export const snippetTokensOf = (options: KeywordOptions) => options.snippetTokens ?? KEYWORD_DEFAULTS.snippetTokens;

/**
 * Keyword search: the best `query.limit` chunks of `query.kb_ids` for a natural-language
 * question, by bm25 over its informative terms. A question of stop words only finds nothing.
 */
export function searchKeyword(source: RetrievalSource, query: SearchQuery, options: KeywordOptions = {}): SearchHit[] {
  const limit = clampLimit(query.limit);
  if (limit === 0) return [];
  const { chunks } = source;
  const { plan, ranked } = keywordRanking(chunks, chunks.kbRanges(query.kb_ids), query.text, limit, options);
  return hydrate(chunks, ranked, snippetTerms(plan), snippetTokensOf(options), limit);
}

