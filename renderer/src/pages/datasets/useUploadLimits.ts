import { useEffect, useState } from 'react';
import type { Operations, OutputOf } from '../../../../shared/operations/index.js';
import { client } from '../../api/index.js';

export type UploadLimits = OutputOf<Operations['uploads.limits']>;

/**
 * The largest file and the accepted types, read when the page opens: the picker filters by them and
 * files over the size are refused before sending. Null until known, or when they cannot be read:
 * the service checks every file again, so an upload never waits for them.
 */
export function useUploadLimits(): UploadLimits | null {
  const [limits, setLimits] = useState<UploadLimits | null>(null);
  useEffect(() => {
    let live = true;
    client.call('uploads.limits', {}).then(
      (read) => {
        if (live) setLimits(read);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return limits;
}

/** The picker's `accept`: the types and their extensions (`.md` alone, as some systems know no type for it). */
export function acceptOf(limits: UploadLimits | null): string | undefined {
  return limits ? [...limits.allowed_types, ...limits.extensions].join(',') : undefined;
}
