import type { Operations, OutputOf } from '../../../../shared/operations/index.js';

type AdminUser = OutputOf<Operations['admin.users.list']>['data'][number];

const count = new Intl.NumberFormat();

/** "3 of 10 model calls left", "no quota", "none left" — what remains of a trial's quota, in words. */
export function quotaLeft(trial: NonNullable<AdminUser['trial']>): string {
  if (trial.quota === null || trial.remaining === null) return 'No call limit';
  if (trial.remaining === 0) return `All ${count.format(trial.quota)} model calls used`;
  return `${count.format(trial.remaining)} of ${count.format(trial.quota)} model calls left`;
}
