import { describe, expect, it } from 'vitest';
import { bootstrapRatings, fitBradleyTerry, type Game } from '../../../main/core/conversation/comparisons/bradley-terry.js';
import { seededRandom } from '../../../main/core/platform/seeded-random.js';
import { gamesOf } from '../../../main/core/conversation/comparisons/leaderboard.js';
import type { VotedResponse } from '../../../main/db/repositories/comparisons.js';

const win = (winner: number, loser: number): Game[] => [{ winner, loser, weight: 1 }];
const tie = (a: number, b: number): Game[] => [
  { winner: a, loser: b, weight: 0.5 },
  { winner: b, loser: a, weight: 0.5 },
];
const repeat = <T>(n: number, make: () => T[]): T[] => Array.from({ length: n }, make).flat();

describe('Bradley–Terry fit', () => {
  it('ranks a clearly better model first, and orders three models by how often they win', () => {
    // 0 beats 1 most of the time, 1 beats 2 most of the time.
    const votes = [...repeat(8, () => [win(0, 1)]), ...repeat(2, () => [win(1, 0)]), ...repeat(8, () => [win(1, 2)]), ...repeat(2, () => [win(2, 1)]), ...repeat(5, () => [win(0, 2)])];
    const ratings = fitBradleyTerry(3, votes.flat());
    expect(ratings[0]).toBeGreaterThan(ratings[1] as number);
    expect(ratings[1]).toBeGreaterThan(ratings[2] as number);
    // The scale is centred: the mean rating is 1000.
    expect(ratings.reduce((s, r) => s + r, 0) / 3).toBeCloseTo(1000, 6);
  });

  it('matches the closed form for two models: 4 wins to 1 is about 4:1 odds (≈ 240 points), shrunk a little by the prior', () => {
    const ratings = fitBradleyTerry(2, [...repeat(4, () => win(0, 1)), ...win(1, 0)], { prior: 0 });
    expect((ratings[0] as number) - (ratings[1] as number)).toBeCloseTo(400 * Math.log10(4), 3);
    const shrunk = fitBradleyTerry(2, [...repeat(4, () => win(0, 1)), ...win(1, 0)]);
    expect((shrunk[0] as number) - (shrunk[1] as number)).toBeLessThan(400 * Math.log10(4));
    expect((shrunk[0] as number) - (shrunk[1] as number)).toBeGreaterThan(100);
  });

  it('gives symmetric data equal ratings', () => {
    const ratings = fitBradleyTerry(3, [...win(0, 1), ...win(1, 0), ...win(1, 2), ...win(2, 1), ...tie(0, 2)]);
    for (const r of ratings) expect(r).toBeCloseTo(1000, 6);
  });

  it('keeps an unbeaten model finite thanks to the prior', () => {
    const ratings = fitBradleyTerry(2, repeat(50, () => win(0, 1)));
    expect(ratings.every(Number.isFinite)).toBe(true);
    expect(ratings[0]).toBeGreaterThan(ratings[1] as number);
  });

  it('rates models with no votes at the middle', () => {
    expect(fitBradleyTerry(2, [])).toEqual([1000, 1000]);
  });
});

describe('bootstrap intervals', () => {
  const votes = (n: number) => [...repeat(n * 3, () => [win(0, 1)]), ...repeat(n, () => [win(1, 0)])];

  it('contain the estimate, are deterministic, and shrink with more votes', () => {
    const few = bootstrapRatings(2, votes(2));
    const many = bootstrapRatings(2, votes(20));
    for (const fit of [few, many]) {
      fit.ratings.forEach((r, i) => {
        expect(fit.low[i]).toBeLessThanOrEqual(r);
        expect(fit.high[i]).toBeGreaterThanOrEqual(r);
      });
    }
    const width = (fit: typeof few, i: number) => (fit.high[i] as number) - (fit.low[i] as number);
    expect(width(many, 0)).toBeLessThan(width(few, 0));
    expect(width(many, 1)).toBeLessThan(width(few, 1));
    expect(bootstrapRatings(2, votes(2))).toEqual(few);
  });

  it('are not zero-width on a single vote (resampling one vote alone would say so)', () => {
    const one = bootstrapRatings(2, [win(0, 1)]);
    expect((one.high[0] as number) - (one.low[0] as number)).toBeGreaterThan(200);
    // Both intervals overlap: one vote does not separate two models.
    expect(one.low[0]).toBeLessThan(one.high[1] as number);
  });

  it('seeded PRNG repeats its sequence', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const xs = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('votes → games', () => {
  const row = (comparison_id: string, outcome: VotedResponse['outcome'], winner: string | null, response_id: string, model_id: string): VotedResponse => ({
    comparison_id,
    outcome,
    winner_response_id: winner,
    response_id,
    model_id,
    model_name: model_id.toUpperCase(),
  });

  it('a winner beats each other answer; a tie is half each way; both_bad is counted, not ranked', () => {
    const { models, votes } = gamesOf([
      row('c1', 'winner', 'r1', 'r1', 'a'),
      row('c1', 'winner', 'r1', 'r2', 'b'),
      row('c1', 'winner', 'r1', 'r3', 'c'),
      row('c2', 'tie', null, 'r4', 'a'),
      row('c2', 'tie', null, 'r5', 'b'),
      row('c3', 'both_bad', null, 'r6', 'a'),
      row('c3', 'both_bad', null, 'r7', 'c'),
    ]);
    expect(models.map((m) => m.model_id)).toEqual(['a', 'b', 'c']);
    expect(votes).toEqual([
      [
        { winner: 0, loser: 1, weight: 1 },
        { winner: 0, loser: 2, weight: 1 },
      ],
      [
        { winner: 0, loser: 1, weight: 0.5 },
        { winner: 1, loser: 0, weight: 0.5 },
      ],
    ]);
    expect(models[0]).toMatchObject({ votes: 3, wins: 1, ties: 1, both_bad: 1, losses: 0 });
    expect(models[2]).toMatchObject({ votes: 2, losses: 1, both_bad: 1 });
  });
});
