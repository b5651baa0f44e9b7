import { memo, useMemo, useState } from 'react';
import { shownCitations } from '../../../../shared/citations.js';
import { Button } from '../../ui/Button.js';
import { useChatActions } from './actions.js';
import { EditMessage } from './EditMessage.js';
import { errorSentence } from './error-sentence.js';
import { AnswerActions, QuestionActions, canContinue } from './MessageActions.js';
import { Citations } from './Citations.js';
import { Markdown } from './Markdown.js';
import type { Message, Model } from './types.js';
import type { VersionInfo } from './VersionSwitcher.js';

function RoutingNote({ message, models }: { message: Message; models: Map<string, Model> }) {
  const routing = message.routing;
  if (!routing) return null;
  const name = models.get(routing.model_id)?.name ?? routing.model_id;
  const text = routing.mode === 'dynamic' ? `Auto → ${name} — ${routing.reason}` : `${name} (chosen)`;
  return <p className="routing-note">{text}</p>;
}

const KIND_LABEL: Record<Message['thoughts'][number]['kind'], string> = {
  plan: 'Plan',
  tool_call: 'Tool call',
  observation: 'Observed',
  answer: 'Answer',
};

const DOING: Record<Message['thoughts'][number]['kind'], string> = {
  plan: 'planning',
  tool_call: 'using a tool',
  observation: 'reading what it found',
  answer: 'answering',
};

/** An agent's steps, folded away under the answer; while it works, the summary says what it is doing. */
function Thoughts({ thoughts, streaming }: { thoughts: Message['thoughts']; streaming: boolean }) {
  const last = thoughts.at(-1);
  const doing = streaming && last ? ` — ${DOING[last.kind]}…` : '';
  return (
    <details className="thoughts">
      <summary>
        Agent thoughts ({thoughts.length}){doing}
      </summary>
      <ol className="thoughts-list">
        {thoughts.map((t) => (
          <li key={t.id} className={`thought thought-${t.kind}`}>
            <span className="thought-kind">{KIND_LABEL[t.kind]}</span>
            <span className="thought-content">{t.content}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** A failed or unfinished answer: one plain sentence, Retry and (with text kept) Continue; the detail on request. */
function AnswerProblem({ message }: { message: Message }) {
  const { busy, regenerate, continueAnswer } = useChatActions();
  const failed = message.status === 'error';
  return (
    <div className={failed ? 'answer-error' : 'answer-note'} role={failed ? 'alert' : undefined}>
      <p className="answer-problem-text">{errorSentence(message)}</p>
      <div className="answer-problem-actions">
        {canContinue(message) ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => continueAnswer(message.id)}>
            Continue
          </Button>
        ) : null}
        {failed ? (
          <Button size="sm" variant={canContinue(message) ? 'ghost' : 'secondary'} disabled={busy} onClick={() => regenerate(message.id, null)}>
            Retry
          </Button>
        ) : null}
        {failed && message.error?.detail ? (
          <details className="answer-problem-detail">
            <summary>Details</summary>
            <p>{message.error.detail}</p>
          </details>
        ) : null}
      </div>
    </div>
  );
}

/** The user's message: its text, or the form that edits it, and its actions. */
function Question({ message, versions }: { message: Message; versions: VersionInfo | undefined }) {
  const [editing, setEditing] = useState(false);
  return (
    <article className="message message-user" aria-label="You said">
      {editing ? (
        <EditMessage message={message} onDone={() => setEditing(false)} />
      ) : (
        <>
          <div className="bubble">{message.content}</div>
          <QuestionActions message={message} onEdit={() => setEditing(true)} versions={versions} />
        </>
      )}
    </article>
  );
}

/**
 * One message: the user's as a bubble, an answer as Markdown with where it came from under it.
 * `versions`: where it sits among the versions at its fork (an edited question, a regenerated answer).
 */
export const MessageView = memo(function MessageView({ message, models, versions }: { message: Message; models: Map<string, Model>; versions?: VersionInfo | undefined }) {
  const [openSource, setOpenSource] = useState<number | null>(null);
  // Cited by a marker or attributed without one: an answer that wrote no [n] still lists its sources.
  const cited = useMemo(() => shownCitations(message.citations, message.content), [message.citations, message.content]);
  if (message.role === 'user') return <Question message={message} versions={versions} />;
  const streaming = message.status === 'streaming';
  const stopped = message.status === 'error' || message.status === 'cancelled' || message.status === 'interrupted';
  return (
    <article className="message message-assistant" aria-label="Answer" aria-busy={streaming || undefined}>
      <div className="answer">
        {message.content === '' && streaming ? (
          <p className="typing" aria-label="Writing">
            <span />
            <span />
            <span />
          </p>
        ) : (
          <Markdown text={message.content} citations={cited} onCite={setOpenSource} />
        )}
        {message.thoughts.length > 0 ? <Thoughts thoughts={message.thoughts} streaming={streaming} /> : null}
        {stopped ? <AnswerProblem message={message} /> : null}
        <Citations messageId={message.id} citations={cited} open={openSource} onToggle={setOpenSource} />
        <RoutingNote message={message} models={models} />
        <AnswerActions message={message} versions={versions} />
      </div>
    </article>
  );
});
