import { LRUCache } from 'lru-cache';
import type { LeaderboardEntry } from '../../../../shared/operations/comparisons.js';
import type { VotedResponse } from '../../../db/repositories/comparisons.js';
import { findModel, type CatalogCtx } from '../../models/catalog/catalog.js';
import { BOOTSTRAP_SAMPLES, bootstrapRatings, type Game } from './bradley-terry.js';

interface Tally {
  model_id: string;
  model_name: string;
  votes: number;
  wins: number;
  losses: number;
  ties: number;
  both_bad: number;
}

/**
 * Votes → pairwise games, one list per vote:
 * - a winner beats each other answer of its comparison (the others are not ranked among themselves);
 * - a tie is half a win each way between every pair;
 * - `both_bad` says nothing about which answer is better: counted, not ranked.
 */
export function gamesOf(rows: VotedResponse[]): { models: Tally[]; votes: Game[][] } {
  const index = new Map<string, number>();
  const models: Tally[] = [];
  const byComparison = new Map<string, VotedResponse[]>();
  for (const row of rows) {
    if (!index.has(row.model_id)) {
      index.set(row.model_id, models.length);
      models.push({ model_id: row.model_id, model_name: row.model_name, votes: 0, wins: 0, losses: 0, ties: 0, both_bad: 0 });
    }
    // Rows come oldest vote first: the latest name a model answered under wins.
    (models[index.get(row.model_id) as number] as Tally).model_name = row.model_name;
    const list = byComparison.get(row.comparison_id) ?? [];
    list.push(row);
    byComparison.set(row.comparison_id, list);
  }
  const votes: Game[][] = [];
  for (const answers of byComparison.values()) {
    const ids = answers.map((a) => index.get(a.model_id) as number);
    const first = answers[0] as VotedResponse;
    for (const i of ids) (models[i] as Tally).votes++;
    const games: Game[] = [];
    if (first.outcome === 'winner') {
      const winner = answers.find((a) => a.response_id === first.winner_response_id);
      if (!winner) continue;
      const w = index.get(winner.model_id) as number;
      (models[w] as Tally).wins++;
      for (const l of ids) {
        if (l === w) continue;
        (models[l] as Tally).losses++;
        games.push({ winner: w, loser: l, weight: 1 });
      }
    } else if (first.outcome === 'tie') {
      for (const i of ids) (models[i] as Tally).ties++;
      for (const [k, a] of ids.entries()) {
        for (const b of ids.slice(k + 1)) games.push({ winner: a, loser: b, weight: 0.5 }, { winner: b, loser: a, weight: 0.5 });
      }
    } else {
      for (const i of ids) (models[i] as Tally).both_bad++;
    }
    if (games.length > 0) votes.push(games);
  }
  return { models, votes };
}

type Fitted = { models: Tally[]; fit: ReturnType<typeof bootstrapRatings> };

/**
 * Fits by the votes they came from. Votes are never edited, only added (or deleted with their
 * comparison), so an organization's count and latest vote name its set of votes; the bootstrap then
 * runs once per new vote, not once per look at the leaderboard. The least recently looked at goes first.
 */
const fits = new LRUCache<string, Fitted>({ max: 16 });

function fitted(organizationId: string, rows: VotedResponse[]): Fitted {
  const key = `${organizationId}:${rows.length}:${rows.at(-1)?.comparison_id ?? ''}`;
  const cached = fits.get(key);
  if (cached) return cached;
  const { models, votes } = gamesOf(rows);
  const result = { models, fit: bootstrapRatings(models.length, votes) };
  fits.set(key, result);
  return result;
}

/**
 * Standard competition ranks ("1, 2, 2, 2, 5") of ratings sorted best first. Ratings equal to the
 * whole point, as the leaderboard shows them, share a rank: numbering models the reader sees tied
 * 2, 3, 4 would claim an order the votes do not give.
 */
export function competitionRanks(sortedRatings: readonly number[]): number[] {
  const ranks: number[] = [];
  sortedRatings.forEach((rating, i) => {
    const tiedWithPrevious = i > 0 && Math.round(rating) === Math.round(sortedRatings[i - 1] as number);
    ranks.push(tiedWithPrevious ? (ranks[i - 1] as number) : i + 1);
  });
  return ranks;
}

export function leaderboardOf(ctx: CatalogCtx) {
  const rows = ctx.repos.comparisons.votedResponses(ctx.caller.user.organization_id);
  const { models, fit } = fitted(ctx.caller.user.organization_id, rows);
  const round = (x: number) => Math.round(x * 10) / 10;
  const entries = models
    .map((m, i) => ({
      ...m,
      // A model that still exists is shown under its current name.
      model_name: findModel(ctx, m.model_id)?.model.name ?? m.model_name,
      rating: round(fit.ratings[i] as number),
      ci_low: round(fit.low[i] as number),
      ci_high: round(fit.high[i] as number),
    }))
    .sort((a, b) => b.rating - a.rating || b.wins - a.wins || a.model_name.localeCompare(b.model_name));
  const ranks = competitionRanks(entries.map((e) => e.rating));
  const data: LeaderboardEntry[] = entries.map((e, i) => ({ rank: ranks[i] as number, ...e }));
  return { data, total_votes: new Set(rows.map((r) => r.comparison_id)).size, method: 'bradley_terry' as const, bootstrap_samples: BOOTSTRAP_SAMPLES };
}
