import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import { useSession } from '../../app/store.js';

/** The signed-in trial's quota, or null for everyone without one. */
export function useTrialQuota() {
  return useSession((s) => (s.session.status === 'signed-in' && s.session.me.trial?.quota != null ? s.session.me.trial : null));
}

/** A trial user's quota is spent: a model call cannot succeed until an admin gives more. */
export function useQuotaSpent(): boolean {
  return useTrialQuota()?.remaining === 0;
}

/**
 * How many model calls a trial user has left, by the composer where they spend them; read again
 * each time an answer ends. Shows nothing for anyone without a quota.
 */
export function TrialCallsLeft({ generating }: { generating: boolean }) {
  const trial = useTrialQuota();
  const refresh = useSession((s) => s.refresh);
  const wasGenerating = useRef(generating);
  const hasTrial = trial !== null;
  useEffect(() => {
    if (wasGenerating.current && !generating && hasTrial) void refresh();
    wasGenerating.current = generating;
  }, [generating, hasTrial, refresh]);
  if (!trial || trial.remaining === null || trial.quota === null) return null;
  return (
    <span className={trial.remaining === 0 ? 'composer-quota composer-quota-spent' : 'composer-quota'} role="status">
      <FormattedMessage id="chat.trial.callsLeft" values={{ remaining: trial.remaining, quota: trial.quota }} />
    </span>
  );
}
