import { describe, expect, it } from 'vitest';
import { intlFor } from '../../../renderer/src/i18n/intl.js';
import { trialValidity } from '../../../renderer/src/pages/admin/trial-status.js';

const NOW = Date.parse('2026-11-26T17:00:00Z');
const later = (ms: number) => new Date(NOW + ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Issue 31: a trial token read "Valid until in 7 days"; it says how long it lasts in a phrase of its own. */
describe('how long a trial still lasts', () => {
  it('counts the days left of a week-long token, a moment after it was issued', () => {
    expect(trialValidity(later(7 * DAY - 5_000), intlFor('en'), NOW)).toBe('Valid for 7 more days');
    expect(trialValidity(later(DAY), intlFor('en'), NOW)).toBe('Valid for 1 more day');
    expect(trialValidity(later(7 * DAY), intlFor('de'), NOW)).toBe('Noch 7 Tage gültig');
    expect(trialValidity(later(7 * DAY), intlFor('ja'), NOW)).toBe('あと 7 日間有効');
    expect(trialValidity(later(7 * DAY), intlFor('zh-Hans'), NOW)).toBe('还可使用 7 天');
  });

  it('counts hours on the last day', () => {
    expect(trialValidity(later(5 * HOUR), intlFor('en'), NOW)).toBe('Valid for 5 more hours');
    expect(trialValidity(later(10 * 60_000), intlFor('en'), NOW)).toBe('Valid for less than an hour');
  });

  it('gives the date when the end is weeks away', () => {
    expect(trialValidity(later(30 * DAY), intlFor('en'), NOW)).toBe('Valid until Dec 26, 2026');
    expect(trialValidity(later(30 * DAY), intlFor('de'), NOW)).toBe('Gültig bis 26. Dez. 2026');
  });
});
