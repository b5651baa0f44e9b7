import { useCallback, useEffect, useRef, useState } from 'react';
import type { Artifact } from '../../../../shared/operations/datasets.js';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';

export type StatusFilter = Artifact['status'] | 'all';
/** Where files come from: every source, uploads only, or one followed folder (its id). */
export type SourceFilter = 'all' | 'uploads' | (string & {});

/** The list operation's own filter for a source: the service pages through only those files. */
const sourceQuery = (source: SourceFilter) => (source === 'all' ? {} : source === 'uploads' ? { source: 'upload' as const } : { folder_id: source });

const PAGE_SIZE = 50;
const POLL_MS = 1000;
/** The service's largest page: a refresh re-reads everything shown in one request up to this. */
const MAX_LIMIT = 200;

/** Not yet ready or failed: its bytes are coming, or it is being read. */
export function isInFlight(artifact: Artifact): boolean {
  return artifact.status === 'pending' || artifact.status === 'uploading' || artifact.status === 'processing';
}

/** Still changing on screen: in flight, or ready with its vectors coming in the background. */
function isMoving(artifact: Artifact): boolean {
  return isInFlight(artifact) || artifact.embedding?.state === 'embedding';
}

export interface ArtifactsState {
  items: Artifact[];
  nextCursor: string | null;
  loading: boolean;
  loadingMore: boolean;
  error: string | null;
  loadMore: () => void;
  refresh: () => void;
}

/**
 * A knowledge base's artifacts, paged by cursor and filtered by status and source, as everyone viewing it
 * should see them, whoever uploads (this window, another user, a script over HTTP):
 * - while any shown artifact is still moving (or `watch` is set, during this window's upload) the
 *   pages shown are read again every second, so statuses change live; when all are final the poll
 *   stops (the service has no change events to subscribe to);
 * - when the window comes back into view or into focus they are read once, so files added
 *   elsewhere meanwhile appear (and start the poll) without a reload.
 */
export function useArtifacts(kbId: string, status: StatusFilter, watch: boolean, source: SourceFilter = 'all'): ArtifactsState {
  const [items, setItems] = useState<Artifact[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Answers for an older filter or knowledge base are dropped.
  const generation = useRef(0);
  const shown = useRef(PAGE_SIZE);

  const query = useCallback(
    (limit: number, cursor?: string) =>
      // Newest first: what was just uploaded is what a person looks for.
      client.call('artifacts.list', { kb_id: kbId, limit, order: 'newest', ...(cursor ? { cursor } : {}), ...(status === 'all' ? {} : { status }), ...sourceQuery(source) }),
    [kbId, status, source],
  );

  const refresh = useCallback(() => {
    const mine = generation.current;
    const limit = Math.min(MAX_LIMIT, Math.max(PAGE_SIZE, shown.current));
    query(limit).then(
      (page) => {
        if (mine !== generation.current) return;
        if (shown.current > limit) {
          // More is shown than one page holds: refresh the head and keep the rest (and its cursor).
          setItems((previous) => [...page.data, ...previous.slice(page.data.length)]);
        } else {
          setItems(page.data);
          setNextCursor(page.next_cursor);
        }
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (mine !== generation.current) return;
        setError(errorText(e));
        setLoading(false);
      },
    );
  }, [query]);

  useEffect(() => {
    generation.current++;
    shown.current = PAGE_SIZE;
    setLoading(true);
    setItems([]);
    refresh();
  }, [refresh]);

  const loadMore = useCallback(() => {
    if (!nextCursor) return;
    const mine = generation.current;
    setLoadingMore(true);
    query(PAGE_SIZE, nextCursor).then(
      (page) => {
        if (mine !== generation.current) return;
        setItems((previous) => {
          const next = [...previous, ...page.data];
          shown.current = next.length;
          return next;
        });
        setNextCursor(page.next_cursor);
        setLoadingMore(false);
      },
      (e: unknown) => {
        if (mine !== generation.current) return;
        setError(errorText(e));
        setLoadingMore(false);
      },
    );
  }, [nextCursor, query]);

  const moving = watch || items.some(isMoving);
  useEffect(() => {
    if (!moving) return;
    const timer = window.setInterval(refresh, POLL_MS);
    return () => window.clearInterval(timer);
  }, [moving, refresh]);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') refresh();
    };
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);

  return { items, nextCursor, loading, loadingMore, error, loadMore, refresh };
}
