import { memo, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { shownCitations } from '../../../../shared/citations.js';
import type { MessageId } from '../../i18n/catalogues/index.js';
import { Button } from '../../ui/Button.js';
import { useChatActions } from './actions.js';
import { EditMessage } from './EditMessage.js';
import { errorSentence, isQuotaRefusal } from './error-sentence.js';
import { useQuotaSpent } from './TrialCallsLeft.js';
import { AnswerActions, QuestionActions, canContinue } from './MessageActions.js';
import { AnswerStats } from './AnswerStats.js';
import { Citations } from './Citations.js';
import { Markdown } from './Markdown.js';
import { MessageImages } from './MessageImages.js';
import type { Message, Model } from './types.js';
import type { VersionInfo } from './VersionSwitcher.js';

function RoutingNote({ message, models }: { message: Message; models: Map<string, Model> }) {
  const intl = useIntl();
  const routing = message.routing;
  if (!routing) return null;
  const model = models.get(routing.model_id)?.name ?? routing.model_id;
  const text = routing.mode === 'dynamic' ? intl.formatMessage({ id: 'chat.message.routingAuto' }, { model, reason: routing.reason }) : intl.formatMessage({ id: 'chat.message.routingChosen' }, { model });
  return <p className="routing-note">{text}</p>;
}

const KIND_LABEL: Record<Message['thoughts'][number]['kind'], MessageId> = {
  plan: 'chat.thoughts.kind.plan',
  tool_call: 'chat.thoughts.kind.toolCall',
  observation: 'chat.thoughts.kind.observation',
  answer: 'chat.thoughts.kind.answer',
};

/** The summary while the agent works: what it is doing at its latest step. */
const DOING: Record<Message['thoughts'][number]['kind'], MessageId> = {
  plan: 'chat.thoughts.doing.plan',
  tool_call: 'chat.thoughts.doing.toolCall',
  observation: 'chat.thoughts.doing.observation',
  answer: 'chat.thoughts.doing.answer',
};

/** An agent's steps, folded away under the answer; while it works, the summary says what it is doing. */
function Thoughts({ thoughts, streaming }: { thoughts: Message['thoughts']; streaming: boolean }) {
  const last = thoughts.at(-1);
  return (
    <details className="thoughts">
      <summary>
        <FormattedMessage id={streaming && last ? DOING[last.kind] : 'chat.thoughts.summary'} values={{ count: thoughts.length }} />
      </summary>
      <ol className="thoughts-list">
        {thoughts.map((t) => (
          <li key={t.id} className={`thought thought-${t.kind}`}>
            <span className="thought-kind">
              <FormattedMessage id={KIND_LABEL[t.kind]} />
            </span>
            <span className="thought-content">{t.content}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}

/** A failed or unfinished answer: one plain sentence, Retry and (with text kept) Continue; the detail on request. */
function AnswerProblem({ message }: { message: Message }) {
  const intl = useIntl();
  const { busy, regenerate, continueAnswer } = useChatActions();
  const quotaSpent = useQuotaSpent();
  const failed = message.status === 'error';
  // Retry and Continue each call a model: with the trial's calls used up neither can work.
  const canCallModel = !isQuotaRefusal(message, quotaSpent);
  return (
    <div className={failed ? 'answer-error' : 'answer-note'} role={failed ? 'alert' : undefined}>
      <p className="answer-problem-text">{errorSentence(message, intl, quotaSpent)}</p>
      <div className="answer-problem-actions">
        {canCallModel && canContinue(message) ? (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => continueAnswer(message.id)}>
            <FormattedMessage id="chat.message.continue" />
          </Button>
        ) : null}
        {failed && canCallModel ? (
          <Button size="sm" variant={canContinue(message) ? 'ghost' : 'secondary'} disabled={busy} onClick={() => regenerate(message.id, null)}>
            <FormattedMessage id="chat.message.retry" />
          </Button>
        ) : null}
        {failed && message.error?.detail ? (
          <details className="answer-problem-detail">
            <summary>
              <FormattedMessage id="chat.message.details" />
            </summary>
            <p>{message.error.detail}</p>
          </details>
        ) : null}
      </div>
    </div>
  );
}

/** The user's message: its text, or the form that edits it, and its actions. */
function Question({ message, versions }: { message: Message; versions: VersionInfo | undefined }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  return (
    <article className="message message-user" aria-label={intl.formatMessage({ id: 'chat.message.youSaid' })}>
      <MessageImages messageId={message.id} images={message.images} />
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
  const intl = useIntl();
  const [openSource, setOpenSource] = useState<number | null>(null);
  // Cited by a marker or attributed without one: an answer that wrote no [n] still lists its sources.
  const cited = useMemo(() => shownCitations(message.citations, message.content), [message.citations, message.content]);
  if (message.role === 'user') return <Question message={message} versions={versions} />;
  const streaming = message.status === 'streaming';
  const stopped = message.status === 'error' || message.status === 'cancelled' || message.status === 'interrupted';
  return (
    <article className="message message-assistant" aria-label={intl.formatMessage({ id: 'chat.message.answer' })} aria-busy={streaming || undefined}>
      <div className="answer">
        {message.content === '' && streaming ? (
          <p className="typing" aria-label={intl.formatMessage({ id: 'chat.message.writing' })}>
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
        <AnswerStats message={message} />
        <AnswerActions message={message} versions={versions} />
      </div>
    </article>
  );
});
