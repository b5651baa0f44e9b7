import { useEffect, useState } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
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

function models(intl: IntlShape, c: ComparisonSummary): string {
  if (c.responses.every((r) => r.model_name === null)) return intl.formatMessage({ id: 'compare.history.blindModels' }, { count: c.responses.length });
  return c.responses.map((r) => r.model_name ?? r.label).join(` ${intl.formatMessage({ id: 'compare.history.vs' })} `);
}

function verdict(intl: IntlShape, c: ComparisonSummary): string {
  if (c.status === 'streaming') return intl.formatMessage({ id: 'compare.history.answering' });
  if (!c.vote) return intl.formatMessage({ id: 'compare.history.notVoted' });
  if (c.vote.outcome === 'tie') return intl.formatMessage({ id: 'compare.history.tie' });
  if (c.vote.outcome === 'both_bad') return intl.formatMessage({ id: 'compare.history.allBad' });
  const winner = c.responses.find((r) => r.id === c.vote?.winner_response_id);
  return winner ? intl.formatMessage({ id: 'compare.history.won' }, { model: winner.model_name ?? winner.label }) : intl.formatMessage({ id: 'compare.history.voted' });
}

/** The caller's comparisons, newest first, each opening where it was left. */
export function History() {
  const intl = useIntl();
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
    <Loadable state={state} reload={reload} loading={intl.formatMessage({ id: 'compare.history.loading' })} failed={intl.formatMessage({ id: 'compare.history.failed' })}>
      {(first) => {
        const all = [...first.data, ...more];
        if (all.length === 0) {
          return (
            <EmptyState
              icon={<CompareIcon size={22} />}
              title={intl.formatMessage({ id: 'compare.history.emptyTitle' })}
              level={3}
              actions={
                <a className="btn btn-primary btn-md" href={compareHref({ tab: 'compare', comparisonId: null })}>
                  {intl.formatMessage({ id: 'compare.history.start' })}
                </a>
              }
            >
              <p>{intl.formatMessage({ id: 'compare.history.emptyBody' })}</p>
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
                      <span>{models(intl, c)}</span>
                      <span aria-hidden="true">{intl.formatMessage({ id: 'compare.history.dot' })}</span>
                      <span>{verdict(intl, c)}</span>
                      <span aria-hidden="true">{intl.formatMessage({ id: 'compare.history.dot' })}</span>
                      <Time iso={c.created_at} />
                    </span>
                  </a>
                </li>
              ))}
            </ul>
            {loadMore.error ? <p className="field-error">{loadMore.error}</p> : null}
            {cursor ? (
              <Button variant="secondary" busy={loadMore.busy} onClick={() => void loadMore.run()}>
                {intl.formatMessage({ id: 'compare.history.older' })}
              </Button>
            ) : null}
          </div>
        );
      }}
    </Loadable>
  );
}
