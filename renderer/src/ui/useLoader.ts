import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from './error-text.js';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'error'; error: string };

/**
 * Loads once on mount and again on `reload()`. An answer that arrives after a newer request was
 * made is dropped, so a slow first load cannot overwrite a fresh one.
 */
export function useLoader<T>(load: () => Promise<T>): { state: Loaded<T>; reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const latest = useRef(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });

  const reload = useCallback(() => {
    const request = ++latest.current;
    loadRef.current().then(
      (data) => {
        if (request === latest.current) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (request === latest.current) setState({ status: 'error', error: errorText(error) });
      },
    );
  }, []);

  useEffect(() => {
    reload();
  }, [reload]);

  return { state, reload };
}
