import { useCallback, useState } from 'react';

/**
 * The one busy state of the renderer: `busy` is true while work started through `during` runs
 * (however it ends), so buttons show their spinner and refuse a second click. Errors pass through
 * to the caller, who decides what to show; `useAction` adds the usual "error as text" on top.
 */
export function useBusy(): { busy: boolean; during: <T>(work: () => Promise<T>) => Promise<T> } {
  const [count, setCount] = useState(0);
  const during = useCallback(async <T,>(work: () => Promise<T>): Promise<T> => {
    setCount((n) => n + 1);
    try {
      return await work();
    } finally {
      setCount((n) => n - 1);
    }
  }, []);
  return { busy: count > 0, during };
}
