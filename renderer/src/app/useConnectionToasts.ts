import { useEffect } from 'react';
import { onReachabilityChange } from '../api/index.js';
import { toast } from '../ui/toast.js';

/** Says once that the service stopped answering, and once that it is back (putting the first away). */
export function useConnectionToasts(): void {
  useEffect(() => {
    let lost: number | null = null;
    return onReachabilityChange((reachable) => {
      if (!reachable) {
        lost = toast.error('Lost the connection to Parley', 'Trying again every few seconds. Changes made meanwhile are not saved.');
        return;
      }
      if (lost !== null) toast.dismiss(lost);
      lost = null;
      toast.success('Connected to Parley again');
    });
  }, []);
}
