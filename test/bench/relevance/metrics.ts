/**
 * Ranking quality against graded relevance judgements, as trec_eval (and so BEIR's pytrec_eval)
 * defines them, so figures compare with published ones:
 * - nDCG@k: linear gains (the judgement's grade), discount log2(rank + 1); the ideal ranking is
 *   every judged document of the query sorted by grade, cut at k;
 * - recall@k: the share of the query's relevant documents (grade > 0) in the top k;
 * - MRR@k: 1 / the rank of the first relevant document in the top k, 0 when there is none.
 * A ranking is a list of document ids, best first; a document listed twice counts once (its
 * first place), as trec_eval keeps one score per document.
 */

/** A query's judgements: document id → grade (0 or less: judged not relevant). */
export type Judgements = ReadonlyMap<string, number>;

function distinct(ranking: readonly string[], k: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ranking) {
    if (out.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(id);
  }
  return out;
}

const gainOf = (judged: Judgements, id: string) => Math.max(0, judged.get(id) ?? 0);

/** Normalised discounted cumulative gain at k; 0 for a query with no relevant document. */
export function ndcgAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const dcg = distinct(ranking, k).reduce((sum, id, i) => sum + gainOf(judged, id) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Share of the relevant documents (grade > 0) found in the top k; 0 when there are none. */
export function recallAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const relevant = [...judged.values()].filter((g) => g > 0).length;
  if (relevant === 0) return 0;
  return distinct(ranking, k).filter((id) => gainOf(judged, id) > 0).length / relevant;
}

/** Reciprocal rank of the first relevant document within the top k; 0 when none is there. */
export function reciprocalRankAt(ranking: readonly string[], judged: Judgements, k: number): number {
  const index = distinct(ranking, k).findIndex((id) => gainOf(judged, id) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

export interface RankingScores {
  ndcg_at_10: number;
  recall_at_10: number;
  mrr_at_10: number;
  /** Queries scored (those with at least one relevant document). */
  queries: number;
}

/**
 * Means over the queries that have at least one relevant document (a query without one cannot be
 * scored, and trec_eval leaves it out too). `rankings` maps a query id to its ranking.
 */
export function meanScores(rankings: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, Judgements>, k = 10): RankingScores {
  let n = 0;
  let ndcg = 0;
  let recall = 0;
  let mrr = 0;
  for (const [query, judged] of qrels) {
    if (![...judged.values()].some((g) => g > 0)) continue;
    const ranking = rankings.get(query) ?? [];
    n++;
    ndcg += ndcgAt(ranking, judged, k);
    recall += recallAt(ranking, judged, k);
    mrr += reciprocalRankAt(ranking, judged, k);
  }
  const mean = (sum: number) => (n === 0 ? 0 : sum / n);
  return { ndcg_at_10: mean(ndcg), recall_at_10: mean(recall), mrr_at_10: mean(mrr), queries: n };
}
