import { describe, expect, it } from 'vitest';
import { describeTarget, verdict, withTarget } from '../../bench/stats.js';
import { applyGoals, goalSummary } from '../../bench/targets.js';

describe('bench targets', () => {
  it('judge a figure against an upper or lower bound, reading numbers printed as text', () => {
    expect(verdict({ p95_ms: 9.9 }, { figure: 'p95_ms', max: 10 })).toBe('met');
    expect(verdict({ p95_ms: '10.01' }, { figure: 'p95_ms', max: 10 })).toBe('not met');
    expect(verdict({ mb_per_s: '41.0' }, { figure: 'mb_per_s', min: 40 })).toBe('met');
    expect(verdict({ mb_per_s: 39 }, { figure: 'mb_per_s', min: 40 })).toBe('not met');
    expect(verdict({ chunks: '1,000,000', p95_ms: 5 }, { figure: 'chunks', min: 1_000_000 })).toBe('met');
  });

  it('say "not measured" for an empty, missing or non-numeric cell, never "met"', () => {
    expect(verdict({}, { figure: 'p95_ms', max: 10 })).toBe('not measured');
    expect(verdict({ p95_ms: '' }, { figure: 'p95_ms', max: 10 })).toBe('not measured');
    expect(verdict({ p95_ms: 'n/a' }, { figure: 'p95_ms', max: 10 })).toBe('not measured');
  });

  it('read as the figure and its bound, and are added as the last columns', () => {
    expect(describeTarget({ figure: 'p95_ms', max: 10 })).toBe('p95_ms ≤ 10');
    expect(describeTarget({ figure: 'overlap_at_10', min: 0.95 })).toBe('overlap_at_10 ≥ 0.95');
    expect(Object.keys(withTarget({ name: 'x', p95_ms: 3 }, { figure: 'p95_ms', max: 5 }))).toEqual(['name', 'p95_ms', 'target', 'met']);
  });

  it('go to the rows that measure a goal, by name and size, leaving others alone', () => {
    const rows = applyGoals('retrieval', [
      { name: 'keyword top-10, all questions', chunks: 100_000, p95_ms: 2, overlap_at_10: 0.99 },
      { name: 'keyword top-10, all questions', chunks: 1_000_000, p95_ms: 5.3, overlap_at_10: 0.87 },
      { name: 'hybrid top-10 (sqlite-vec, 256-d, exact KNN)', chunks: 100_000, p50_ms: 40, p95_ms: 56 },
      { name: 'keyword top-10, topical questions', chunks: 1_000_000, p95_ms: 4 },
    ]);
    expect(rows[0]).not.toHaveProperty('met');
    expect(rows[1]).toMatchObject({ target: 'p95_ms ≤ 10; overlap_at_10 ≥ 0.95', met: 'met; not met' });
    expect(rows[2]).toMatchObject({ target: 'p95_ms ≤ 5', met: 'not met' });
    expect(rows[3]).not.toHaveProperty('met');
  });

  it('are judged on the rows of the app’s own search, not on the rows timed beside them', () => {
    const rows = [
      { name: 'keyword top-10, all questions', chunks: 1_000_000, p95_ms: 9.5, overlap_at_10: 0.96 },
      { name: 'keyword top-10, all questions, on one thread (before)', chunks: 1_000_000, p95_ms: 12, overlap_at_10: 0.96 },
      { name: 'keyword top-10, all questions, the newest file of each knowledge base processing', chunks: 1_000_000, p95_ms: 14 },
      { name: 'hybrid top-10 (HNSW, 384-d)', chunks: 1_000_000, p95_ms: 9, recall_at_10: 0.96 },
      { name: 'hybrid top-10, both halves on one thread (384-d, before)', chunks: 1_000_000, p95_ms: 11 },
    ];
    expect(applyGoals('retrieval', rows).map((r) => r.met)).toEqual(['met; met', undefined, undefined, 'met; met', undefined]);
    const byGoal = new Map(goalSummary({ retrieval: rows }).map((g) => [g.goal, g]));
    expect(byGoal.get('keyword top-10 p95 at 1M chunks')).toMatchObject({ value: '9.5', met: 'met' });
    expect(byGoal.get('hybrid top-10 p95 at 1M chunks')).toMatchObject({ value: '9', met: 'met' });
  });

  it('sum up every goal, a goal no row measures showing as not measured', () => {
    const summary = goalSummary({
      ttft: [{ path: 'added by Parley', p50_ms: '1.00', p95_ms: '2.50' }],
      pipeline: [{ file: 'plain text', mb: '8', mb_per_s: '17.5' }],
    });
    const byGoal = new Map(summary.map((g) => [g.goal, g]));
    expect(byGoal.get('time-to-first-token overhead p95')).toEqual({ goal: 'time-to-first-token overhead p95', value: '2.50', target: 'p95_ms ≤ 3', met: 'met' });
    expect(byGoal.get('plain text upload → ready')).toMatchObject({ value: '17.5', met: 'not met' });
    expect(byGoal.get('served mode ready on a 1M-chunk database')).toMatchObject({ value: '', met: 'not measured' });
    expect(byGoal.get('hybrid top-10 p95 at 1M chunks')?.met).toBe('not measured');
  });
});
