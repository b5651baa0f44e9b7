/**
 * Bradley–Terry ratings from pairwise outcomes, with bootstrap confidence intervals.
 *
 * Each model i has a strength p_i; P(i beats j) = p_i / (p_i + p_j). The fit is Hunter's (2004)
 * minorise–maximise iteration. A small prior — every model plays `prior` virtual games, half won
 * and half lost, against a fixed opponent of strength 1 — keeps an unbeaten (or never-winning)
 * model finite and pulls models with few votes towards the middle.
 *
 * Ratings are on an Elo-like scale: 1000 + 400·log10(p_i), the geometric mean strength at 1000, so
 * a 400-point gap is 10:1 odds.
 */
import { seededRandom } from '../seeded-random.js';

/** One pairwise result: `winner` beat `loser` with this weight (1 a win, 0.5 each way a tie). */
export interface Game {
  winner: number;
  loser: number;
  weight: number;
}

export interface FitOptions {
  /** Virtual games against the fixed opponent per model (half won, half lost). */
  prior?: number;
  maxIterations?: number;
  tolerance?: number;
}

export const ELO_BASE = 1000;
export const ELO_SCALE = 400;

function add(wins: Float64Array[], g: Game): void {
  const row = wins[g.winner] as Float64Array;
  row[g.loser] = (row[g.loser] as number) + g.weight;
}

/** Games tallied into a matrix: wins[i][j] = how much i beat j. */
function tally(n: number, games: Iterable<Game>): Float64Array[] {
  const wins = Array.from({ length: n }, () => new Float64Array(n));
  for (const g of games) add(wins, g);
  return wins;
}

interface Fit {
  /** Strengths against the prior's fixed opponent (strength 1). */
  strengths: number[];
  /** Elo-like ratings, centred on 1000. */
  ratings: number[];
}

/** The MM fit over a tallied matrix. */
function fitTally(n: number, wins: Float64Array[], options: FitOptions = {}): Fit {
  const prior = options.prior ?? 1;
  const maxIterations = options.maxIterations ?? 500;
  const tolerance = options.tolerance ?? 1e-9;
  const totalWins = wins.map((row) => row.reduce((s, w) => s + w, 0) + prior / 2);
  let p = new Array<number>(n).fill(1);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Array<number>(n);
    let change = 0;
    for (let i = 0; i < n; i++) {
      // The virtual opponent (strength 1) contributes prior / (p_i + 1).
      let denominator = prior / ((p[i] as number) + 1);
      const row = wins[i] as Float64Array;
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const games = (row[j] as number) + ((wins[j] as Float64Array)[i] as number);
        if (games > 0) denominator += games / ((p[i] as number) + (p[j] as number));
      }
      next[i] = denominator > 0 ? (totalWins[i] as number) / denominator : 1;
      change = Math.max(change, Math.abs(Math.log(next[i] as number) - Math.log(p[i] as number)));
    }
    p = next;
    if (change < tolerance) break;
  }
  const logs = p.map((v) => Math.log10(v));
  const mean = logs.reduce((s, v) => s + v, 0) / Math.max(1, n);
  return { strengths: p, ratings: logs.map((v) => ELO_BASE + ELO_SCALE * (v - mean)) };
}

/** Ratings of `n` models from `games`. */
export function fitBradleyTerry(n: number, games: Iterable<Game>, options: FitOptions = {}): number[] {
  return fitTally(n, tally(n, games), options).ratings;
}

/**
 * Standard errors of the ratings from the fit's observed information (its diagonal: each model's
 * games, the prior's included), on the Elo-like scale.
 */
function standardErrors(n: number, wins: Float64Array[], strengths: number[], prior: number): number[] {
  const perNat = ELO_SCALE / Math.LN10;
  return strengths.map((pi, i) => {
    let information = (prior * pi) / (pi + 1) ** 2;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const games = ((wins[i] as Float64Array)[j] as number) + ((wins[j] as Float64Array)[i] as number);
      const pj = strengths[j] as number;
      if (games > 0) information += (games * pi * pj) / (pi + pj) ** 2;
    }
    return information > 0 ? perNat / Math.sqrt(information) : Infinity;
  });
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (position - low);
}

export interface RatingsWithIntervals {
  ratings: number[];
  low: number[];
  high: number[];
}

export interface BootstrapOptions extends FitOptions {
  samples?: number;
  seed?: number;
}

/** Two-sided 95%: the percentiles, and the normal quantile. */
const TAIL = 0.025;
const Z_95 = 1.959964;

export const BOOTSTRAP_SAMPLES = 200;
export const BOOTSTRAP_SEED = 20240505;

/**
 * The fit, and 95% intervals by a percentile bootstrap over votes: each sample draws as many votes
 * as there are, with replacement (a vote's games stay together), and is fitted again.
 *
 * Resampling a handful of votes understates the uncertainty (one vote resampled is always the same
 * vote: a zero-width interval), so an interval is never narrower than the normal approximation
 * from the fit's information (±1.96 standard errors); it also always contains the estimate.
 */
export function bootstrapRatings(n: number, votes: Game[][], options: BootstrapOptions = {}): RatingsWithIntervals {
  const observed = tally(n, votes.flat());
  const fit = fitTally(n, observed, options);
  const ratings = fit.ratings;
  const errors = standardErrors(n, observed, fit.strengths, options.prior ?? 1);
  const wald = (i: number, sign: 1 | -1) => (ratings[i] as number) + sign * Z_95 * (errors[i] as number);
  if (votes.length === 0) return { ratings, low: ratings.map((_, i) => wald(i, -1)), high: ratings.map((_, i) => wald(i, 1)) };
  const samples = options.samples ?? BOOTSTRAP_SAMPLES;
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const draws: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < samples; s++) {
    const wins = Array.from({ length: n }, () => new Float64Array(n));
    for (let k = 0; k < votes.length; k++) {
      for (const g of votes[Math.floor(random() * votes.length)] as Game[]) add(wins, g);
    }
    fitTally(n, wins, options).ratings.forEach((r, i) => (draws[i] as number[]).push(r));
  }
  const low: number[] = [];
  const high: number[] = [];
  draws.forEach((d, i) => {
    d.sort((a, b) => a - b);
    low.push(Math.min(quantile(d, TAIL), wald(i, -1)));
    high.push(Math.max(quantile(d, 1 - TAIL), wald(i, 1)));
  });
  return { ratings, low, high };
}
