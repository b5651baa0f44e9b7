import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { errorText } from './error-text.js';
import { useBusy } from './useBusy.js';

export interface Action<A extends unknown[], R> {
  /** Runs the call; answers its result, or `undefined` when it threw (the reason is then in `error`). */
  run: (...args: A) => Promise<R | undefined>;
  /** Whether a run is under way, for the button's spinner and to block a second click. */
  busy: boolean;
  /** Why the last run failed, as text to show; null once a run starts or after `reset()`. */
  error: string | null;
  /** Forgets the last failure, e.g. when a dialog showing it is closed. */
  reset: () => void;
}

/**
 * The busy and error state of one async call that a form or button starts. Validation can live in
 * `fn` too: whatever it throws becomes `error`, the same way a refusal of the service does.
 */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>): Action<A, R> {
  const { busy, during } = useBusy();
  const [error, setError] = useState<string | null>(null);
  // The latest `fn`, so that `run` keeps one identity while `fn` closes over fresh state. Updated in
  // a layout effect, which runs before the browser can deliver another event (a passive effect may
  // run later, and a click right after typing would then call the `fn` of the render before it).
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });

  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setError(null);
      try {
        return await during(() => latest.current(...args));
      } catch (e) {
        setError(errorText(e));
        return undefined;
      }
    },
    [during],
  );
  const reset = useCallback(() => setError(null), []);

  return { run, busy, error, reset };
}
