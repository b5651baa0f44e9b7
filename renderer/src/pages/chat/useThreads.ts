import { useCallback, useEffect, useRef, useState } from 'react';
import { client } from '../../api/index.js';
import { getIntl } from '../../i18n/intl.js';
import { errorText } from '../../ui/error-text.js';
import { reportFailure } from '../../ui/report-failure.js';
import type { ThreadListItem } from './types.js';

/**
 * The user's threads, newest first, filtered by title and message text as the search box changes
 * (a thread found by a message carries it, `match`). A first load or a
 * search that fails says so in the list; a refresh in the background (an answer ended) keeps the
 * list shown and says it in a toast.
 */
export function useThreads() {
  const [query, setQuery] = useState('');
  const [threads, setThreads] = useState<ThreadListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const shownQuery = useRef<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    // A short pause, so typing a word is one request rather than one per letter.
    const timer = setTimeout(() => {
      client.call('threads.list', { limit: 200, ...(query.trim() ? { q: query.trim() } : {}) }).then(
        (page) => {
          if (cancelled) return;
          shownQuery.current = query;
          setThreads(page.data);
          setError(null);
        },
        (e: unknown) => {
          if (cancelled) return;
          if (shownQuery.current === query) reportFailure(getIntl().formatMessage({ id: 'chat.threads.refreshFailed' }), e);
          else setError(errorText(e));
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
