import { describe, expect, it } from 'vitest';
import { meanScores, ndcgAt, recallAt, reciprocalRankAt } from '../../bench/relevance/metrics.js';

// One query, graded judgements: a = 3, b = 2, c = 1, x = 0 (judged not relevant). Unjudged: y, z.
const judged = new Map([
  ['a', 3],
  ['b', 2],
  ['c', 1],
  ['x', 0],
]);
// Ideal DCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.2618595 + 0.5 = 4.7618595
const IDEAL_3 = 3 + 2 / Math.log2(3) + 0.5;

describe('nDCG with graded gains', () => {
  it('is 1 for the ideal order and less when the grades come in the wrong order', () => {
    expect(ndcgAt(['a', 'b', 'c'], judged, 10)).toBeCloseTo(1, 10);
    // c, b, a: 1/1 + 2/log2(3) + 3/2 = 1 + 1.2618595 + 1.5 = 3.7618595, over 4.7618595 = 0.789998
    expect(ndcgAt(['c', 'b', 'a'], judged, 10)).toBeCloseTo(0.789998, 6);
  });

  it('uses the grade as the gain: a grade-3 document first is worth more than a grade-1 one', () => {
    // a, y, x: 3/1 = 3 → 3 / 4.7618595 = 0.630006
    expect(ndcgAt(['a', 'y', 'x'], judged, 10)).toBeCloseTo(3 / IDEAL_3, 10);
    expect(ndcgAt(['a', 'y', 'x'], judged, 10)).toBeCloseTo(0.630006, 6);
    // c, y, x: 1/1 = 1 → 0.210002
    expect(ndcgAt(['c', 'y', 'x'], judged, 10)).toBeCloseTo(0.210002, 6);
  });

  it('discounts by rank: y, a → 3/log2(3) = 1.8927893, over 4.7618595 = 0.397490', () => {
    expect(ndcgAt(['y', 'a'], judged, 10)).toBeCloseTo(0.397490, 6);
  });

  it('cuts both the ranking and the ideal ranking at k', () => {
    // k = 1: ideal is a (3); ranking b → 2/3
    expect(ndcgAt(['b', 'a'], judged, 1)).toBeCloseTo(2 / 3, 10);
    // k = 2: b, a → 2 + 3/log2(3) = 3.8927893; ideal 3 + 2/log2(3) = 4.2618595 → 0.9134015
    expect(ndcgAt(['b', 'a', 'c'], judged, 2)).toBeCloseTo(0.9134015, 6);
  });

  it('counts a document listed twice once, at its first place', () => {
    // a, a, b → a, b: (3 + 2/log2(3)) / 4.7618595 = 4.2618595 / 4.7618595 = 0.894999
    expect(ndcgAt(['a', 'a', 'b'], judged, 10)).toBeCloseTo(0.894999, 6);
  });

  it('is 0 when nothing relevant is found, and 0 for a query with no relevant document', () => {
    expect(ndcgAt(['y', 'z', 'x'], judged, 10)).toBe(0);
    expect(ndcgAt(['a'], new Map([['a', 0]]), 10)).toBe(0);
  });
});

describe('recall', () => {
  it('is the share of relevant documents (grade > 0) in the top k', () => {
    expect(recallAt(['a', 'y', 'c'], judged, 10)).toBeCloseTo(2 / 3, 10);
    expect(recallAt(['a', 'y', 'c'], judged, 2)).toBeCloseTo(1 / 3, 10);
    // x is judged, but not relevant
    expect(recallAt(['x', 'y'], judged, 10)).toBe(0);
    expect(recallAt(['a', 'a', 'a'], judged, 10)).toBeCloseTo(1 / 3, 10);
  });
});

describe('MRR', () => {
  it('is 1 / the rank of the first relevant document within k', () => {
    expect(reciprocalRankAt(['a', 'b'], judged, 10)).toBe(1);
    expect(reciprocalRankAt(['y', 'x', 'c'], judged, 10)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRankAt(['y', 'x', 'c'], judged, 2)).toBe(0);
    expect(reciprocalRankAt(['y', 'y', 'b'], judged, 10)).toBeCloseTo(1 / 2, 10);
  });
});

describe('means over queries', () => {
  it('average each metric over the queries with a relevant document, a missing ranking scoring 0', () => {
    const qrels = new Map([
      ['q1', judged],
      ['q2', new Map([['d', 1]])],
      ['q3', new Map([['e', 0]])], // nothing relevant: left out
    ]);
    const rankings = new Map([['q1', ['c', 'y', 'x']]]); // q2 not answered
    const s = meanScores(rankings, qrels);
    expect(s.queries).toBe(2);
    // q1: nDCG 0.210002, recall 1/3, RR 1; q2: 0, 0, 0
    expect(s.ndcg_at_10).toBeCloseTo(0.210002 / 2, 6);
    expect(s.recall_at_10).toBeCloseTo(1 / 6, 10);
    expect(s.mrr_at_10).toBeCloseTo(0.5, 10);
  });
});
