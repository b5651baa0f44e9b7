import { FormattedMessage, useIntl } from 'react-intl';
import { CopyButton } from '../../ui/CopyButton.js';
import { usePopover } from '../../ui/usePopover.js';
import { useChatActions } from './actions.js';
import type { Message } from './types.js';
import { VersionSwitcher, type VersionInfo } from './VersionSwitcher.js';

/** Whether an answer stopped early with text to go on from. */
export const canContinue = (m: Message) => (m.status === 'error' || m.status === 'cancelled' || m.status === 'interrupted') && m.content.trim() !== '';

/** The menu toggle's arrow: a glyph, not words (the toggle is named by its aria-label). */
const MENU_ARROW = '▾';

/** "Regenerate" and, beside it, a menu to answer again with a chosen model (any model may continue a thread). */
function RegenerateMenu({ message }: { message: Message }) {
  const intl = useIntl();
  const { busy, models, regenerate } = useChatActions();
  const popover = usePopover(busy);
  const usable = models.filter((m) => m.status !== 'unavailable');
  return (
    <span className="msg-split">
      <button type="button" className="msg-action" disabled={busy} onClick={() => regenerate(message.id, null)}>
        <FormattedMessage id="chat.actions.regenerate" />
      </button>
      <details className="msg-menu" ref={popover}>
        <summary className={`msg-action msg-menu-toggle${busy ? ' is-disabled' : ''}`} aria-label={intl.formatMessage({ id: 'chat.actions.regenerateWith' })} aria-disabled={busy || undefined} onClick={(event) => busy && event.preventDefault()}>
          {MENU_ARROW}
        </summary>
        <div className="msg-menu-list" role="group" aria-label={intl.formatMessage({ id: 'chat.actions.answerAgainWith' })}>
          <p className="msg-menu-title">
            <FormattedMessage id="chat.actions.answerAgainWith" />
          </p>
          <button type="button" className="msg-menu-item" disabled={busy} onClick={() => regenerate(message.id, null)}>
            <FormattedMessage id="chat.actions.auto" />
          </button>
          {usable.map((m) => (
            <button key={m.id} type="button" className="msg-menu-item" disabled={busy} onClick={() => regenerate(message.id, m.id)}>
              {m.name}
            </button>
          ))}
        </div>
      </details>
    </span>
  );
}

/** The actions under an answer: copy, regenerate (with any model). Continue sits with the note of an answer that stopped early. */
export function AnswerActions({ message, versions }: { message: Message; versions?: VersionInfo | undefined }) {
  const intl = useIntl();
  if (message.status === 'streaming') return null;
  return (
    <div className="msg-actions" role="group" aria-label={intl.formatMessage({ id: 'chat.actions.answerGroup' })}>
      <VersionSwitcher info={versions} kind="answer" />
      {message.content ? <CopyButton text={() => message.content} label={intl.formatMessage({ id: 'chat.actions.copyAnswer' })} /> : null}
      <RegenerateMenu message={message} />
    </div>
  );
}

/** The actions under the user's message: copy, edit. */
export function QuestionActions({ message, onEdit, versions }: { message: Message; onEdit: () => void; versions?: VersionInfo | undefined }) {
  const intl = useIntl();
  const { busy } = useChatActions();
  if (!message.id.startsWith('msg_')) return null;
  return (
    <div className="msg-actions msg-actions-user" role="group" aria-label={intl.formatMessage({ id: 'chat.actions.messageGroup' })}>
      <VersionSwitcher info={versions} kind="question" />
      <CopyButton text={() => message.content} label={intl.formatMessage({ id: 'chat.actions.copyMessage' })} />
      <button type="button" className="msg-action" disabled={busy} onClick={onEdit}>
        <FormattedMessage id="chat.actions.edit" />
      </button>
    </div>
  );
}
