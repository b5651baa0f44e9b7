import { useEffect, useState } from 'react';
import { client } from '../../api/index.js';
import { Button } from '../../ui/Button.js';
import { EmptyState } from '../../ui/EmptyState.js';
import { CompareIcon } from '../../ui/icons.js';
import { Loadable } from '../../ui/Loadable.js';
import { Time } from '../../ui/Time.js';
import { useLoader } from '../../ui/useLoader.js';
import { useAction } from '../../ui/useAction.js';
import { compareHref } from './compare-hash.js';
import type { ComparisonSummary } from './types.js';

const PAGE = 20;

function models(c: ComparisonSummary): string {
  if (c.responses.every((r) => r.model_name === null)) return `Blind · ${c.responses.length} models`;
  return c.responses.map((r) => r.model_name ?? r.label).join(' vs ');
}

function verdict(c: ComparisonSummary): string {
  if (c.status === 'streaming') return 'Answering…';
  if (!c.vote) return 'Not voted';
  if (c.vote.outcome === 'tie') return 'Tie';
  if (c.vote.outcome === 'both_bad') return 'All bad';
  const winner = c.responses.find((r) => r.id === c.vote?.winner_response_id);
  return winner ? `${winner.model_name ?? winner.label} won` : 'Voted';
}

/** The caller's comparisons, newest first, each opening where it was left. */
export function History() {
  const { state, reload } = useLoader(() => client.call('comparisons.list', { limit: PAGE }));
  const [more, setMore] = useState<ComparisonSummary[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  useEffect(() => {
    if (state.status === 'ready') {
      setMore([]);
      setCursor(state.data.next_cursor);
    }
  }, [state]);
  const loadMore = useAction(async () => {
    if (!cursor) return;
    const page = await client.call('comparisons.list', { limit: PAGE, cursor });
    setMore((m) => [...m, ...page.data]);
    setCursor(page.next_cursor);
  });

  return (
    <Loadable state={state} reload={reload} loading="Loading your comparisons…" failed="Your comparisons could not be loaded">
      {(first) => {
        const all = [...first.data, ...more];
        if (all.length === 0) {
          return (
            <EmptyState icon={<CompareIcon size={22} />} title="No comparisons yet" level={3} actions={<a className="btn btn-primary btn-md" href={compareHref({ tab: 'compare', comparisonId: null })}>Start a comparison</a>}>
              <p>Your comparisons are kept here, with their answers and your vote, to open again later.</p>
            </EmptyState>
          );
        }
        return (
          <div className="compare-history">
            <ul className="history-list">
              {all.map((c) => (
                <li key={c.id}>
                  <a className="history-item" href={compareHref({ tab: 'compare', comparisonId: c.id })}>
                    <span className="history-prompt">{c.prompt}</span>
                    <span className="history-meta">
                      <span>{models(c)}</span>
                      <span aria-hidden="true">·</span>
                      <span>{verdict(c)}</span>
                      <span aria-hidden="true">·</span>
                      <Time iso={c.created_at} />
                    </span>
                  </a>
                </li>
              ))}
            </ul>
            {loadMore.error ? <p className="field-error">{loadMore.error}</p> : null}
            {cursor ? (
              <Button variant="secondary" busy={loadMore.busy} onClick={() => void loadMore.run()}>
                Show older comparisons
              </Button>
            ) : null}
          </div>
        );
      }}
    </Loadable>
  );
}
