import { useCallback, useEffect, useRef, useState } from 'react';
import type { StreamSignalOf } from '../../api/client.js';
import { client } from '../../api/index.js';
import { errorText } from '../../ui/error-text.js';
import { applyComparisonEvent, type Comparison } from './types.js';

export interface CompareRequest {
  prompt: string;
  model_ids: string[];
  dataset_ids: string[];
  blind: boolean;
}

export type ComparisonState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | { status: 'ready'; comparison: Comparison | null; streaming: boolean; error: string | null };

/** What `startedHere` holds between Compare and the new comparison's id. */
const PENDING = 'pending';

/**
 * The comparison on screen. `start` streams a new one, every answer growing in its own column;
 * opening one by id reads it, and re-attaches to its stream while its answers are still being
 * written (a reload, another window); `stop` cancels the answers still streaming; `vote` casts the
 * one vote.
 */
export function useComparison(comparisonId: string | null, onStarted: (id: string) => void) {
  const [state, setState] = useState<ComparisonState>({ status: comparisonId ? 'loading' : 'idle' });
  const closeStream = useRef<(() => void) | null>(null);
  /** The comparison this hook is streaming: opening it by id must not reload it. */
  const startedHere = useRef<string | null>(null);
  const onStartedRef = useRef(onStarted);
  useEffect(() => {
    onStartedRef.current = onStarted;
  });

  /** Follows a comparison's stream into the state, until its end. */
  const follow = useCallback((open: (onSignal: (signal: StreamSignalOf<'comparisons.create' | 'comparisons.stream'>) => void) => () => void) => {
    closeStream.current?.();
    closeStream.current = open((signal) => {
      if (signal.type === 'event') {
        const event = signal.event;
        if (event.event === 'comparison.created' && startedHere.current === PENDING) {
          startedHere.current = event.data.comparison.id;
          onStartedRef.current(event.data.comparison.id);
        }
        setState((s) => {
          if (s.status !== 'ready') return s;
          const comparison = applyComparisonEvent(s.comparison, event);
          return { ...s, comparison, streaming: event.event !== 'comparison.completed' };
        });
        return;
      }
      closeStream.current = null;
      if (signal.type === 'error') {
        const message = errorText(signal.error);
        setState((s) => (s.status === 'ready' ? { ...s, streaming: false, error: message } : { status: 'error', error: message }));
      } else {
        setState((s) => (s.status === 'ready' ? { ...s, streaming: false } : s));
      }
    });
  }, []);

  useEffect(() => {
    if (comparisonId !== null && comparisonId === startedHere.current) return;
    closeStream.current?.();
    closeStream.current = null;
    startedHere.current = null;
    if (!comparisonId) {
      setState({ status: 'idle' });
      return;
    }
    let cancelled = false;
    setState({ status: 'loading' });
    client.call('comparisons.get', { id: comparisonId }).then(
      (comparison) => {
        if (cancelled) return;
        // Still being written (a reload mid-way, another window): re-attach and replay from the start.
        const live = comparison.status === 'streaming';
        setState({ status: 'ready', comparison, streaming: live, error: null });
        if (live) follow((onSignal) => client.stream('comparisons.stream', { id: comparisonId }, {}, onSignal));
      },
      (error: unknown) => {
        if (!cancelled) setState({ status: 'error', error: errorText(error) });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [comparisonId, follow]);

  useEffect(
    () => () => {
      closeStream.current?.();
    },
    [],
  );

  const start = useCallback(
    (request: CompareRequest) => {
      startedHere.current = PENDING;
      setState({ status: 'ready', comparison: null, streaming: true, error: null });
      const input = { prompt: request.prompt, model_ids: request.model_ids, blind: request.blind, stream: true, ...(request.dataset_ids.length > 0 ? { dataset_ids: request.dataset_ids } : {}) };
      follow((onSignal) => client.stream('comparisons.create', input, {}, onSignal));
    },
    [follow],
  );

  const current = state.status === 'ready' ? state.comparison : null;
  const currentId = current?.id ?? null;

  const stop = useCallback(async () => {
    if (!currentId) return;
    try {
      const comparison = await client.call('comparisons.cancel', { id: currentId });
      closeStream.current?.();
      closeStream.current = null;
      setState({ status: 'ready', comparison, streaming: false, error: null });
    } catch (error) {
      setState((s) => (s.status === 'ready' ? { ...s, error: errorText(error) } : s));
    }
  }, [currentId]);

  const vote = useCallback(
    async (choice: { winner_response_id: string } | { outcome: 'tie' | 'both_bad' }) => {
      if (!currentId) return;
      try {
        const comparison = await client.call('comparisons.vote', { id: currentId, ...choice });
        setState({ status: 'ready', comparison, streaming: false, error: null });
      } catch (error) {
        setState((s) => (s.status === 'ready' ? { ...s, error: errorText(error) } : s));
      }
    },
    [currentId],
  );

  return { state, start, stop, vote };
}
