import { memo } from 'react';
import { Citations } from './Citations.js';
import { Markdown } from './Markdown.js';
import type { Message, Model } from './types.js';

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

const STATUS_NOTE: Partial<Record<Message['status'], string>> = {
  cancelled: 'Stopped.',
  interrupted: 'Interrupted when the app stopped.',
};

/** One message: the user's as a bubble, an answer as Markdown with where it came from under it. */
export const MessageView = memo(function MessageView({ message, models }: { message: Message; models: Map<string, Model> }) {
  if (message.role === 'user') {
    return (
      <article className="message message-user" aria-label="You said">
        <div className="bubble">{message.content}</div>
      </article>
    );
  }
  const streaming = message.status === 'streaming';
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
          <Markdown text={message.content} />
        )}
        {message.thoughts.length > 0 ? <Thoughts thoughts={message.thoughts} streaming={streaming} /> : null}
        {message.error ? (
          <div className="answer-error" role="alert">
            <strong>The answer stopped with an error.</strong> {message.error.detail}
          </div>
        ) : null}
        {STATUS_NOTE[message.status] ? <p className="answer-status">{STATUS_NOTE[message.status]}</p> : null}
        <Citations citations={message.citations} />
        <RoutingNote message={message} models={models} />
      </div>
    </article>
  );
});
