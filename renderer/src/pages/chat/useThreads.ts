import { useCallback, useEffect, useState } from 'react';
import { client } from '../../api/index.js';
import type { Thread } from './types.js';

/** The user's threads, newest first, filtered by title as the search box changes. */
export function useThreads() {
  const [query, setQuery] = useState('');
  const [threads, setThreads] = useState<Thread[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    // A short pause, so typing a word is one request rather than one per letter.
    const timer = setTimeout(() => {
      client.call('threads.list', { limit: 200, ...(query.trim() ? { q: query.trim() } : {}) }).then(
        (page) => {
          if (cancelled) return;
          setThreads(page.data);
          setError(null);
        },
        (e: unknown) => {
          if (!cancelled) setError(e instanceof Error ? e.message : String(e));
        },
      );
    }, query ? 200 : 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, version]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const rename = useCallback(
    async (id: string, title: string) => {
      await client.call('threads.update', { id, title });
      reload();
    },
    [reload],
  );
  const remove = useCallback(
    async (id: string) => {
      await client.call('threads.delete', { id });
      reload();
    },
    [reload],
  );
  return { threads, error, query, setQuery, reload, rename, remove };
}
