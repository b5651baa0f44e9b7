import { useCallback, useEffect, useRef, useState } from 'react';
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

/** How often a comparison opened while another window still writes it is read again. */
const POLL_MS = 1000;

/**
 * The comparison on screen. `start` streams a new one, every answer growing in its own column;
 * `open` reads a stored one (and keeps reading while its answers are still being written
 * elsewhere); `stop` cancels the answers still streaming; `vote` casts the one vote.
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
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ status: 'loading' });
    const load = () => {
      client.call('comparisons.get', { id: comparisonId }).then(
        (comparison) => {
          if (cancelled) return;
          setState({ status: 'ready', comparison, streaming: false, error: null });
          if (comparison.status === 'streaming') timer = setTimeout(load, POLL_MS);
        },
        (error: unknown) => {
          if (!cancelled) setState({ status: 'error', error: errorText(error) });
        },
      );
    };
    load();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [comparisonId]);

  useEffect(
    () => () => {
      closeStream.current?.();
    },
    [],
  );

  const start = useCallback((request: CompareRequest) => {
    closeStream.current?.();
    setState({ status: 'ready', comparison: null, streaming: true, error: null });
    const input = { prompt: request.prompt, model_ids: request.model_ids, blind: request.blind, stream: true, ...(request.dataset_ids.length > 0 ? { dataset_ids: request.dataset_ids } : {}) };
    closeStream.current = client.stream('comparisons.create', input, {}, (signal) => {
      if (signal.type === 'event') {
        const event = signal.event;
        if (event.event === 'comparison.created') {
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

  const reset = useCallback(() => {
    closeStream.current?.();
    closeStream.current = null;
    startedHere.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, stop, vote, reset };
}
