import { describe, expect, it } from 'vitest';
import { competitionRanks } from '../../../main/core/conversation/comparisons/leaderboard.js';

/** Issue 31: three models tied at 910 were ranked 2, 3, 4. */
describe('leaderboard ranks', () => {
  it('gives models tied on the rating shown one rank, and skips the places they share', () => {
    expect(competitionRanks([1040, 910, 910.2, 909.8, 850])).toEqual([1, 2, 2, 2, 5]);
  });

  it('numbers distinct ratings 1, 2, 3, and an all-tied board 1 throughout', () => {
    expect(competitionRanks([1100, 1000, 900])).toEqual([1, 2, 3]);
    expect(competitionRanks([1000, 1000, 1000])).toEqual([1, 1, 1]);
    expect(competitionRanks([])).toEqual([]);
  });
});
