import type { IntlShape } from 'react-intl';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';

type AdminUser = OutputOf<Operations['admin.users.list']>['data'][number];

/** "3 of 10 model calls left", "no quota", "none left" — what remains of a trial's quota, in words. */
export function quotaLeft(trial: NonNullable<AdminUser['trial']>, intl: IntlShape): string {
  if (trial.quota === null || trial.remaining === null) return intl.formatMessage({ id: 'admin.trialStatus.noLimit' });
  if (trial.remaining === 0) return intl.formatMessage({ id: 'admin.trialStatus.allUsed' }, { quota: trial.quota });
  return intl.formatMessage({ id: 'admin.trialStatus.left' }, { remaining: trial.remaining, quota: trial.quota });
}
