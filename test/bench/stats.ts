/** Percentile of an ascending-sorted sample (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function summarize(samples: number[]): { p50: number; p95: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
}

/**
 * A Markdown table of `rows`. Columns are every key any row has, in the order first met; a row
 * without a column leaves its cell empty (rows of one table may measure different things).
 */
export function printRows(title: string, rows: Array<Record<string, string | number | undefined>>): void {
  if (rows.length === 0) return;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: string | number | undefined) => (value === undefined ? '' : String(value));
  process.stdout.write(`\n${title}\n| ${keys.join(' | ')} |\n| ${keys.map(() => '---').join(' | ')} |\n`);
  for (const row of rows) process.stdout.write(`| ${keys.map((k) => cell(row[k])).join(' | ')} |\n`);
}

/** A bench table row: column → cell. */
export type Row = Record<string, string | number | undefined>;

/** A figure's goal: the column that holds it, and the bound it must stay within. */
export interface Target {
  figure: string;
  /** Met when the figure is at most this. */
  max?: number;
  /** Met when the figure is at least this. */
  min?: number;
}

/** The figure as a number; undefined when the cell is empty or not a number. */
export function figureOf(row: Row, figure: string): number | undefined {
  const cell = row[figure];
  const value = typeof cell === 'number' ? cell : typeof cell === 'string' && cell.trim() !== '' ? Number(cell.replace(/,/g, '')) : Number.NaN;
  return Number.isFinite(value) ? value : undefined;
}

/** Whether the row meets the target: `met`, `not met`, or `not measured` when the figure is missing. */
export function verdict(row: Row, target: Target): 'met' | 'not met' | 'not measured' {
  const value = figureOf(row, target.figure);
  if (value === undefined) return 'not measured';
  const ok = (target.max === undefined || value <= target.max) && (target.min === undefined || value >= target.min);
  return ok ? 'met' : 'not met';
}

/** How a target reads in a table: `p95_ms ≤ 10`, `mb_per_s ≥ 40`. */
export function describeTarget(target: Target): string {
  const bounds = [target.min === undefined ? '' : `≥ ${target.min}`, target.max === undefined ? '' : `≤ ${target.max}`].filter(Boolean);
  return `${target.figure} ${bounds.join(' and ')}`;
}

/** The row with `target` and `met` cells added (printRows puts them where they first appear: last). */
export function withTarget<R extends Row>(row: R, target: Target): R & { target: string; met: string } {
  return { ...row, target: describeTarget(target), met: verdict(row, target) };
}

/** Deterministic PRNG (mulberry32), so every run measures the same inputs. */
export { seededRandom as prng } from '../../main/core/platform/seeded-random.js';
