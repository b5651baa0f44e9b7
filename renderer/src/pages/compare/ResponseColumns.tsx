import { memo, useEffect, useRef, useState, type CSSProperties } from 'react';
import { Button } from '../../ui/Button.js';
import { Citations } from '../chat/Citations.js';
import { Markdown } from '../chat/Markdown.js';
import { responseTitle, type Comparison, type ComparisonResponse } from './types.js';

const STATUS_LABEL: Record<ComparisonResponse['status'], string> = {
  streaming: 'Writing…',
  complete: 'Done',
  error: 'Error',
  cancelled: 'Stopped',
  interrupted: 'Interrupted',
};

const STATUS_TONE: Record<ComparisonResponse['status'], string> = {
  streaming: 'badge-accent',
  complete: 'badge-success',
  error: 'badge-danger',
  cancelled: '',
  interrupted: 'badge-danger',
};

function wordsOf(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const ResponseColumn = memo(function ResponseColumn({ response, winner }: { response: ComparisonResponse; winner: boolean }) {
  const streaming = response.status === 'streaming';
  const title = responseTitle(response);
  return (
    <article className={`compare-column${winner ? ' is-winner' : ''}`} aria-label={`Answer ${response.label}: ${title}`} aria-busy={streaming || undefined}>
      <header className="compare-column-header">
        <span className="compare-label" aria-hidden="true">
          {response.label}
        </span>
        <h3 className="compare-column-title">{title}</h3>
        <span className={`badge ${STATUS_TONE[response.status]}`}>{STATUS_LABEL[response.status]}</span>
      </header>
      <div className="compare-column-body">
        {response.content === '' && streaming ? (
          <p className="typing" aria-label="Writing">
            <span />
            <span />
            <span />
          </p>
        ) : response.content === '' ? (
          <p className="muted">No text.</p>
        ) : (
          <Markdown text={response.content} />
        )}
        {response.error ? (
          <div className="answer-error">
            <strong>This model stopped with an error.</strong> {response.error.detail}
          </div>
        ) : null}
      </div>
      <footer className="compare-column-stats">
        {response.latency_ms !== null ? <span title="Time to the end of the answer">{seconds(response.latency_ms)}</span> : null}
        {response.usage ? (
          <span title="Tokens: prompt in, answer out">
            {response.usage.input_tokens} in · {response.usage.output_tokens} out
          </span>
        ) : null}
        {streaming ? <span>{wordsOf(response.content)} words so far</span> : null}
        {winner ? <span className="compare-winner-note">Your pick</span> : null}
      </footer>
    </article>
  );
});

/** Every answer in its own column, side by side; on narrow screens they scroll sideways. */
export function ResponseColumns({ comparison }: { comparison: Comparison }) {
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
          {comparison.responses.length} answers — scroll sideways (or Shift + wheel) to see them all →
        </p>
      ) : null}
      <div ref={grid} className={`compare-grid${hidden ? ' has-more' : ''}`} style={{ '--columns': comparison.responses.length } as CSSProperties} tabIndex={0} role="region" aria-label="Columns">
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

const OUTCOME_TEXT = { winner: 'a winner', tie: 'a tie', both_bad: 'all answers bad' } as const;

/** The one vote: which answer is better, a tie, or both bad. Then what was voted, names revealed. */
export function VoteBar({ comparison, onVote }: { comparison: Comparison; onVote: (choice: { winner_response_id: string } | { outcome: 'tie' | 'both_bad' }) => Promise<void> }) {
  const [busy, setBusy] = useState<string | null>(null);
  const vote = comparison.vote;
  if (vote) {
    const winner = comparison.responses.find((r) => r.id === vote.winner_response_id);
    return (
      <div className="vote-bar is-done" role="status">
        <p>
          <strong>You voted:</strong>{' '}
          {winner ? `${winner.label} is better (${responseTitle(winner)})` : OUTCOME_TEXT[vote.outcome]}.
          {comparison.blind ? ' The models are revealed above.' : ''}
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
    <div className="vote-bar" role="group" aria-label="Vote">
      <p className="vote-question">
        Which answer is better?{comparison.blind ? ' Voting reveals the models.' : ''}
        {left > 0 ? ` ${left === 1 ? 'One answer' : `${left} answers`} did not complete and ${left === 1 ? 'is' : 'are'} left out of the vote.` : ''}
      </p>
      <div className="vote-buttons">
        {/* An answer that failed or was stopped is no answer: it cannot win (nor is it ranked). */}
        {comparison.responses
          .filter((r) => r.status === 'complete')
          .map((r) => (
            <Button key={r.id} variant="secondary" busy={busy === r.id} disabled={busy !== null} onClick={() => void cast(r.id, { winner_response_id: r.id })}>
              {r.label} is better
            </Button>
          ))}
        <Button variant="ghost" busy={busy === 'tie'} disabled={busy !== null} onClick={() => void cast('tie', { outcome: 'tie' })}>
          Tie
        </Button>
        <Button variant="ghost" busy={busy === 'both_bad'} disabled={busy !== null} onClick={() => void cast('both_bad', { outcome: 'both_bad' })}>
          {comparison.responses.length === 2 ? 'Both bad' : 'All bad'}
        </Button>
      </div>
    </div>
  );
}
