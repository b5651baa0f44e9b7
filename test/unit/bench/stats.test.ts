import { afterEach, describe, expect, it, vi } from 'vitest';
import { percentile, printRows } from '../../bench/stats.js';

afterEach(() => vi.restoreAllMocks());

function printed(rows: Parameters<typeof printRows>[1]): string {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  printRows('T', rows);
  return out;
}

describe('bench tables', () => {
  it('take every column any row has, and leave missing cells empty instead of printing undefined', () => {
    const out = printed([
      { benchmark: 'keyword', p95_ms: 5.1 },
      { benchmark: 'hybrid', p95_ms: 9.2, recall_at_10: 0.97 },
      { benchmark: 'none', p95_ms: undefined },
    ]);
    expect(out).not.toContain('undefined');
    expect(out.trim().split('\n')).toEqual(['T', '| benchmark | p95_ms | recall_at_10 |', '| --- | --- | --- |', '| keyword | 5.1 |  |', '| hybrid | 9.2 | 0.97 |', '| none |  |  |']);
  });

  it('nearest-rank percentiles', () => {
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });
});
