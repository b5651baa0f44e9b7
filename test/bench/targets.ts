/**
 * The figures issue #12 sets targets for, and which bench row holds each. `npm run bench` adds a
 * `target` and a `met` column to those rows and closes with one table of every goal, so a goal
 * whose row is missing (renamed, or a bench that does not exist yet) shows as `not measured`
 * instead of silently disappearing.
 *
 * Rows are found by what they say (their name and size), not by position, so the benches can
 * add rows freely. A bench that knows its own target can also set `target` and `met` itself
 * (`withTarget` in stats.ts); the relevance bench does, since its target is another row's figure.
 */
import { figureOf, verdict, withTarget, type Row, type Target } from './stats.js';

export interface Goal extends Target {
  /** What the goal is, as docs/performance.md's table says it. */
  goal: string;
  /** The table (key in run.ts) whose rows may hold the figure. */
  table: 'retrieval' | 'pipeline' | 'ingest' | 'ttft' | 'startup' | 'attacks' | 'folders';
  /** Whether this row is the one measuring the goal. */
  where: (row: Row) => boolean;
}

const text = (row: Row, ...columns: string[]) => columns.map((c) => String(row[c] ?? '')).join(' ');
const chunksAre = (row: Row, n: number) => figureOf(row, 'chunks') === n;
/** A row timing the same on PostgreSQL (issue #33): beside the desktop's goal, not its figure. */
const onPostgres = (row: Row) => /\bon PostgreSQL\b/i.test(text(row, 'file', 'format', 'name'));
/** The rows of the app's own search; not the rows timing the way it was before, or under another condition, beside it. */
const isKeywordAll = (row: Row) => /^keyword top-10, all questions\s*$/i.test(text(row, 'name', 'benchmark'));
const isHybrid = (row: Row) => /^hybrid\b/i.test(text(row, 'name', 'benchmark')) && !/\bbefore\b/i.test(text(row, 'name', 'benchmark'));

export const GOALS: readonly Goal[] = [
  { goal: 'keyword top-10 p95 at 1M chunks', table: 'retrieval', where: (r) => isKeywordAll(r) && chunksAre(r, 1_000_000), figure: 'p95_ms', max: 10 },
  {
    goal: 'keyword top 10 agrees with exhaustive bm25 at 1M chunks',
    table: 'retrieval',
    where: (r) => isKeywordAll(r) && chunksAre(r, 1_000_000),
    figure: 'overlap_at_10',
    min: 0.95,
  },
  { goal: 'hybrid top-10 p95 at 100k chunks', table: 'retrieval', where: (r) => isHybrid(r) && chunksAre(r, 100_000), figure: 'p95_ms', max: 5 },
  { goal: 'hybrid top-10 p95 at 1M chunks', table: 'retrieval', where: (r) => isHybrid(r) && chunksAre(r, 1_000_000), figure: 'p95_ms', max: 10 },
  {
    goal: 'hybrid recall@10 against exact kNN at 1M chunks',
    table: 'retrieval',
    where: (r) => isHybrid(r) && chunksAre(r, 1_000_000),
    figure: 'recall_at_10',
    min: 0.95,
  },
  { goal: 'plain text upload → ready', table: 'pipeline', where: (r) => /plain text/i.test(text(r, 'file', 'format', 'name')) && !onPostgres(r), figure: 'mb_per_s', min: 40 },
  { goal: 'PDF upload → ready', table: 'pipeline', where: (r) => /pdf/i.test(text(r, 'file', 'format', 'name')) && !onPostgres(r), figure: 'mb_per_s', min: 5 },
  { goal: 'time-to-first-token overhead p95', table: 'ttft', where: (r) => /added by parley/i.test(text(r, 'path')), figure: 'p95_ms', max: 3 },
  { goal: 'served mode ready on a 1M-chunk database', table: 'startup', where: (r) => chunksAre(r, 1_000_000), figure: 'cpu_ms', max: 500 },
  // Issue 27's "Done when": the three attacks at once (test/bench/attacks.ts), not one of them alone.
  { goal: 'health p99 under attack < 100 ms', table: 'attacks', where: (r) => /^health under attack \(long thread, runaway answers, slow bodies\)/i.test(text(r, 'condition')), figure: 'p99_ms', max: 100 },
  // Issue 30: "reflected within 5 s of the change settling" (test/bench/folders.ts, the watcher's settle time included).
  { goal: 'watched folder: an edited file searchable, p95', table: 'folders', where: (r) => figureOf(r, 'searchable_p95_ms') !== undefined, figure: 'searchable_p95_ms', max: 5000 },
];

/** The rows of one table, each goal's rows given its `target` and `met` cells. */
export function applyGoals(table: Goal['table'], rows: readonly Row[]): Row[] {
  const goals = GOALS.filter((g) => g.table === table);
  return rows.map((row) => {
    const mine = goals.filter((g) => g.where(row));
    if (mine.length === 0) return row;
    if (mine.length === 1) return withTarget(row, mine[0]!);
    // Several goals on one row: one cell each, joined.
    const judged = mine.map((g) => withTarget(row, g));
    return { ...row, target: judged.map((j) => j.target).join('; '), met: judged.map((j) => j.met).join('; ') };
  });
}

export interface GoalResult {
  goal: string;
  value: string;
  target: string;
  met: string;
}

/**
 * One line per goal: the figure of the last row that measures it (the largest size, as benches
 * print sizes in increasing order), or `not measured` when no row does.
 */
export function goalSummary(tables: Partial<Record<Goal['table'], readonly Row[]>>): GoalResult[] {
  return GOALS.map((g) => {
    const row = [...(tables[g.table] ?? [])].reverse().find((r) => g.where(r) && figureOf(r, g.figure) !== undefined);
    const judged = withTarget(row ?? {}, g);
    return { goal: g.goal, value: row ? String(row[g.figure]) : '', target: judged.target, met: row ? verdict(row, g) : 'not measured' };
  });
}
