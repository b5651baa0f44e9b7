import { describe, expect, it } from 'vitest';
import { groupThreads } from '../../../renderer/src/pages/chat/thread-groups.js';
import { citedIndices, citedOnly } from '../../../shared/citations.js';

describe('thread date groups', () => {
  it('puts threads in Today, Yesterday, Previous 7 days, Previous 30 days and Older, keeping their order', () => {
    const now = new Date(2026, 10, 23, 9, 0);
    const at = (days: number, hour = 8) => new Date(2026, 10, 23 - days, hour).toISOString();
    const threads = [at(0), at(1, 23), at(3), at(20), at(90)].map((updated_at, i) => ({ id: `t${i}`, updated_at }));
    expect(groupThreads(threads, now).map((g) => [g.group, g.threads.map((t) => t.id)])).toEqual([
      ['today', ['t0']],
      ['yesterday', ['t1']],
      ['previous7Days', ['t2']],
      ['previous30Days', ['t3']],
      ['older', ['t4']],
    ]);
  });
});

describe('cited passages', () => {
  it('reads [n], [1, 3] and [2–4], and keeps only the citations the text names', () => {
    expect([...citedIndices('See [1] and [3, 5]; also [7–8].')].sort((a, b) => a - b)).toEqual([1, 3, 5, 7, 8]);
    expect(citedOnly([{ index: 1 }, { index: 2 }, { index: 3 }], 'Only [2].')).toEqual([{ index: 2 }]);
    expect(citedOnly([{ index: 1 }], 'No citation here.')).toEqual([]);
  });
});
