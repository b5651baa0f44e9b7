import { useEffect } from 'react';
import { onReachabilityChange } from '../api/index.js';
import { useIntl } from 'react-intl';
import { toast } from '../ui/toast.js';

/** Says once that the service stopped answering, and once that it is back (putting the first away). */
export function useConnectionToasts(): void {
  const intl = useIntl();
  useEffect(() => {
    let lost: number | null = null;
    return onReachabilityChange((reachable) => {
      if (!reachable) {
        lost = toast.error(intl.formatMessage({ id: 'app.connection.lost' }), intl.formatMessage({ id: 'app.connection.lostDetail' }));
        return;
      }
      if (lost !== null) toast.dismiss(lost);
      lost = null;
      toast.success(intl.formatMessage({ id: 'app.connection.back' }));
    });
  }, [intl]);
}
