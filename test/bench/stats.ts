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

/** Deterministic PRNG (mulberry32), so every run measures the same inputs. */
export { seededRandom as prng } from '../../main/core/seeded-random.js';
