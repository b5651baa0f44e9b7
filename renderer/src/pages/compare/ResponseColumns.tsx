import { memo, useEffect, useRef, useState, type CSSProperties } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { Button } from '../../ui/Button.js';
import { Citations } from '../chat/Citations.js';
import { Markdown } from '../chat/Markdown.js';
import { responseTitle, type Comparison, type ComparisonResponse } from './types.js';
import { wordCount } from './word-count.js';

const STATUS_LABEL: Record<ComparisonResponse['status'], MessageId> = {
  streaming: 'compare.response.status.streaming',
  complete: 'compare.response.status.complete',
  error: 'compare.response.status.error',
  cancelled: 'compare.response.status.cancelled',
  interrupted: 'compare.response.status.interrupted',
};

const STATUS_TONE: Record<ComparisonResponse['status'], string> = {
  streaming: 'badge-accent',
  complete: 'badge-success',
  error: 'badge-danger',
  cancelled: '',
  interrupted: 'badge-danger',
};

function seconds(intl: IntlShape, ms: number): string {
  return ms < 1000
    ? intl.formatMessage({ id: 'compare.response.ms' }, { ms: intl.formatNumber(ms) })
    : intl.formatMessage({ id: 'compare.response.seconds' }, { s: intl.formatNumber(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
}

const ResponseColumn = memo(function ResponseColumn({ response, winner }: { response: ComparisonResponse; winner: boolean }) {
  const intl = useIntl();
  const streaming = response.status === 'streaming';
  const title = responseTitle(intl, response);
  return (
    <article className={`compare-column${winner ? ' is-winner' : ''}`} aria-label={intl.formatMessage({ id: 'compare.response.label' }, { label: response.label, title })} aria-busy={streaming || undefined}>
      <header className="compare-column-header">
        <span className="compare-label" aria-hidden="true">
          {response.label}
        </span>
        <h3 className="compare-column-title">{title}</h3>
        <span className={`badge ${STATUS_TONE[response.status]}`}>{intl.formatMessage({ id: STATUS_LABEL[response.status] })}</span>
      </header>
      <div className="compare-column-body">
        {response.content === '' && streaming ? (
          <p className="typing" aria-label={intl.formatMessage({ id: 'compare.response.writing' })}>
            <span />
            <span />
            <span />
          </p>
        ) : response.content === '' ? (
          <p className="muted">{intl.formatMessage({ id: 'compare.response.noText' })}</p>
        ) : (
          <Markdown text={response.content} />
        )}
        {response.error ? (
          <div className="answer-error">
            <strong>{intl.formatMessage({ id: 'compare.response.errorTitle' })}</strong> {response.error.detail}
          </div>
        ) : null}
      </div>
      <footer className="compare-column-stats">
        {response.latency_ms !== null ? <span title={intl.formatMessage({ id: 'compare.response.latencyTitle' })}>{seconds(intl, response.latency_ms)}</span> : null}
        {response.usage ? (
          <span title={intl.formatMessage({ id: 'compare.response.tokensTitle' })}>
            {intl.formatMessage({ id: 'compare.response.tokens' }, { input: response.usage.input_tokens, output: response.usage.output_tokens })}
          </span>
        ) : null}
        {streaming ? <span>{intl.formatMessage({ id: 'compare.response.wordsSoFar' }, { count: wordCount(response.content) })}</span> : null}
        {winner ? <span className="compare-winner-note">{intl.formatMessage({ id: 'compare.response.yourPick' })}</span> : null}
      </footer>
    </article>
  );
});

/** Every answer in its own column, side by side; on narrow screens they scroll sideways. */
export function ResponseColumns({ comparison }: { comparison: Comparison }) {
  const intl = useIntl();
  const winner = comparison.vote?.winner_response_id ?? null;
  const grid = useRef<HTMLDivElement>(null);
  const [hidden, setHidden] = useState(false);
  // Columns past the edge are easy to miss: say so, and how to reach them, while some are out of view.
  useEffect(() => {
    const el = grid.current;
    if (!el) return;
    const check = () => setHidden(el.scrollWidth - el.clientWidth - el.scrollLeft > 4);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    el.addEventListener('scroll', check, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', check);
    };
  }, [comparison.responses.length]);
  return (
    <div className="compare-grid-wrap">
      {hidden ? (
        <p className="compare-scroll-hint" role="note">
          {intl.formatMessage({ id: 'compare.response.scrollHint' }, { count: comparison.responses.length })}
        </p>
      ) : null}
      <div ref={grid} className={`compare-grid${hidden ? ' has-more' : ''}`} style={{ '--columns': comparison.responses.length } as CSSProperties} tabIndex={0} role="region" aria-label={intl.formatMessage({ id: 'compare.response.columns' })}>
        {comparison.responses.map((r) => (
          <ResponseColumn key={r.id} response={r} winner={r.id === winner} />
        ))}
      </div>
    </div>
  );
}

export function SharedCitations({ comparison }: { comparison: Comparison }) {
  if (comparison.citations.length === 0) return null;
  return (
    <div className="compare-citations">
      <Citations citations={comparison.citations} />
    </div>
  );
}

const OUTCOME_TEXT = { winner: 'compare.vote.outcome.winner', tie: 'compare.vote.outcome.tie', both_bad: 'compare.vote.outcome.bothBad' } as const satisfies Record<string, MessageId>;

/** The one vote: which answer is better, a tie, or both bad. Then what was voted, names revealed. */
export function VoteBar({ comparison, onVote }: { comparison: Comparison; onVote: (choice: { winner_response_id: string } | { outcome: 'tie' | 'both_bad' }) => Promise<void> }) {
  const intl = useIntl();
  const [busy, setBusy] = useState<string | null>(null);
  const vote = comparison.vote;
  if (vote) {
    const winner = comparison.responses.find((r) => r.id === vote.winner_response_id);
    return (
      <div className="vote-bar is-done" role="status">
        <p>
          <FormattedMessage
            id="compare.vote.done"
            values={{
              b: (chunks) => <strong>{chunks}</strong>,
              verdict: winner
                ? intl.formatMessage({ id: 'compare.vote.winner' }, { label: winner.label, title: responseTitle(intl, winner) })
                : intl.formatMessage({ id: OUTCOME_TEXT[vote.outcome] }),
              blind: comparison.blind ? 'yes' : 'no',
            }}
          />
        </p>
      </div>
    );
  }
  if (comparison.status === 'streaming') return null;
  const cast = async (key: string, choice: { winner_response_id: string } | { outcome: 'tie' | 'both_bad' }) => {
    setBusy(key);
    try {
      await onVote(choice);
    } finally {
      setBusy(null);
    }
  };
  const left = comparison.responses.filter((r) => r.status !== 'complete').length;
  return (
    <div className="vote-bar" role="group" aria-label={intl.formatMessage({ id: 'compare.vote.label' })}>
      <p className="vote-question">
        {intl.formatMessage({ id: 'compare.vote.question' }, { blind: comparison.blind ? 'yes' : 'no', left })}
      </p>
      <div className="vote-buttons">
        {/* An answer that failed or was stopped is no answer: it cannot win (nor is it ranked). */}
        {comparison.responses
          .filter((r) => r.status === 'complete')
          .map((r) => (
            <Button key={r.id} variant="secondary" busy={busy === r.id} disabled={busy !== null} onClick={() => void cast(r.id, { winner_response_id: r.id })}>
              {intl.formatMessage({ id: 'compare.vote.isBetter' }, { label: r.label })}
            </Button>
          ))}
        <Button variant="ghost" busy={busy === 'tie'} disabled={busy !== null} onClick={() => void cast('tie', { outcome: 'tie' })}>
          {intl.formatMessage({ id: 'compare.vote.tie' })}
        </Button>
        <Button variant="ghost" busy={busy === 'both_bad'} disabled={busy !== null} onClick={() => void cast('both_bad', { outcome: 'both_bad' })}>
          {intl.formatMessage({ id: comparison.responses.length === 2 ? 'compare.vote.bothBad' : 'compare.vote.allBad' })}
        </Button>
      </div>
    </div>
  );
}
