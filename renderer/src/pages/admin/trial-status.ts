import type { IntlShape } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';

type AdminUser = OutputOf<Operations['admin.users.list']>['data'][number];

/** "3 of 10 model calls left", "no quota", "none left" — what remains of a trial's quota, in words. */
export function quotaLeft(trial: NonNullable<AdminUser['trial']>, intl: IntlShape): string {
  if (trial.quota === null || trial.remaining === null) return intl.formatMessage({ id: 'admin.trialStatus.noLimit' });
  if (trial.remaining === 0) return intl.formatMessage({ id: 'admin.trialStatus.allUsed' }, { quota: trial.quota });
  return intl.formatMessage({ id: 'admin.trialStatus.left' }, { remaining: trial.remaining, quota: trial.quota });
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** Beyond this many days a date reads better than a count ("Valid until 26 Dec 2026"). */
const COUNT_DAYS_UNDER = 14;

/**
 * "Valid for 7 more days", "Valid for 5 more hours", "Valid until 26 Dec 2026": how long a trial that
 * has not ended yet still lasts, as a phrase of its own. A relative time ("in 7 days") cannot follow
 * "Valid until", hence whole phrases.
 */
export function trialValidity(expiresAt: string, intl: IntlShape, now = Date.now()): string {
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return intl.formatMessage({ id: 'admin.trialStatus.validUntil' }, { date: expiresAt });
  const left = at - now;
  const hours = Math.round(left / HOUR);
  if (hours < 1) return intl.formatMessage({ id: 'admin.trialStatus.validUnderAnHour' });
  if (hours < 24) return intl.formatMessage({ id: 'admin.trialStatus.validHours' }, { hours });
  const days = Math.round(left / DAY);
  if (days < COUNT_DAYS_UNDER) return intl.formatMessage({ id: 'admin.trialStatus.validDays' }, { days });
  return intl.formatMessage({ id: 'admin.trialStatus.validUntil' }, { date: intl.formatDate(at, { year: 'numeric', month: 'short', day: 'numeric' }) });
}
