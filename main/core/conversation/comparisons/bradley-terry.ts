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
import { seededRandom } from '../../platform/seeded-random.js';

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

/** Games tallied into a flat n×n matrix: wins[i·n + j] = how much i beat j. */
function tally(n: number, games: Iterable<Game>): Float64Array {
  const wins = new Float64Array(n * n);
  for (const g of games) wins[g.winner * n + g.loser] = (wins[g.winner * n + g.loser] as number) + g.weight;
  return wins;
}

interface Fit {
  /** Strengths against the prior's fixed opponent (strength 1). */
  strengths: number[];
  /** Elo-like ratings, centred on 1000. */
  ratings: number[];
}

/**
 * Multiplies every strength by the factor that best fits the prior's games. The pairwise games do
 * not depend on the common scale, so this is an exact ascent step; without it the scale, pinned only
 * by the weak prior, drifts into place over thousands of sweeps.
 */
function rescale(p: number[]): void {
  // d/d(log c) of the prior's log-likelihood ∝ Σ (1 − c·p_i) / (1 + c·p_i): decreasing in c, zero at the best c.
  const slope = (logC: number) => p.reduce((s, pi) => s + (1 - Math.exp(logC) * pi) / (1 + Math.exp(logC) * pi), 0);
  let low = -60;
  let high = 60;
  for (let k = 0; k < 60; k++) {
    const mid = (low + high) / 2;
    if (slope(mid) > 0) low = mid;
    else high = mid;
  }
  const c = Math.exp((low + high) / 2);
  for (let i = 0; i < p.length; i++) p[i] = (p[i] as number) * c;
}

/**
 * The MM fit over a tallied matrix, updating in place (Gauss–Seidel: each update uses the newest
 * strengths, which converges in about half the sweeps). `start` warm-starts it (the bootstrap
 * starts every resample from the full fit).
 */
function fitTally(n: number, wins: Float64Array, options: FitOptions = {}, start?: number[]): Fit {
  const prior = options.prior ?? 1;
  const maxIterations = options.maxIterations ?? 1000;
  const tolerance = options.tolerance ?? 1e-8;
  const totalWins = new Array<number>(n).fill(prior / 2);
  // Games between each pair, either way round: fixed during the fit.
  const games = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      totalWins[i] = (totalWins[i] as number) + (wins[i * n + j] as number);
      if (i !== j) games[i * n + j] = (wins[i * n + j] as number) + (wins[j * n + i] as number);
    }
  }
  const p = start ? [...start] : new Array<number>(n).fill(1);
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      const pi = p[i] as number;
      // The virtual opponent (strength 1) contributes prior / (p_i + 1).
      let denominator = prior / (pi + 1);
      for (let j = 0; j < n; j++) {
        const g = games[i * n + j] as number;
        if (g > 0) denominator += g / (pi + (p[j] as number));
      }
      const next = denominator > 0 ? (totalWins[i] as number) / denominator : 1;
      change = Math.max(change, Math.abs(Math.log(next / pi)));
      p[i] = next;
    }
    if (prior > 0) rescale(p);
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
function standardErrors(n: number, wins: Float64Array, strengths: number[], prior: number): number[] {
  const perNat = ELO_SCALE / Math.LN10;
  return strengths.map((pi, i) => {
    let information = (prior * pi) / (pi + 1) ** 2;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const games = (wins[i * n + j] as number) + (wins[j * n + i] as number);
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
  // Votes packed flat (vote k's games are starts[k]..starts[k+1]), so a resample is a tight loop.
  const starts = new Int32Array(votes.length + 1);
  votes.forEach((games, k) => (starts[k + 1] = (starts[k] as number) + games.length));
  const all = votes.flat();
  const cells = Int32Array.from(all, (g) => g.winner * n + g.loser);
  const weights = Float64Array.from(all, (g) => g.weight);
  const random = seededRandom(options.seed ?? BOOTSTRAP_SEED);
  const draws: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < samples; s++) {
    const wins = new Float64Array(n * n);
    for (let k = 0; k < votes.length; k++) {
      const vote = Math.floor(random() * votes.length);
      for (let g = starts[vote] as number; g < (starts[vote + 1] as number); g++) {
        const cell = cells[g] as number;
        wins[cell] = (wins[cell] as number) + (weights[g] as number);
      }
    }
    // Warm-started and to a looser tolerance: an interval needs no better than a tenth of a point.
    fitTally(n, wins, { ...options, tolerance: Math.max(options.tolerance ?? 0, 1e-6) }, fit.strengths).ratings.forEach((r, i) => (draws[i] as number[]).push(r));
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
