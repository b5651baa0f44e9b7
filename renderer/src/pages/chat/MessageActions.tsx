import { CopyButton } from '../../ui/CopyButton.js';
import { usePopover } from '../../ui/usePopover.js';
import { useChatActions } from './actions.js';
import type { Message } from './types.js';
import { VersionSwitcher, type VersionInfo } from './VersionSwitcher.js';

/** Whether an answer stopped early with text to go on from. */
export const canContinue = (m: Message) => (m.status === 'error' || m.status === 'cancelled' || m.status === 'interrupted') && m.content.trim() !== '';

/** "Regenerate" and, beside it, a menu to answer again with a chosen model (any model may continue a thread). */
function RegenerateMenu({ message }: { message: Message }) {
  const { busy, models, regenerate } = useChatActions();
  const popover = usePopover(busy);
  const usable = models.filter((m) => m.status !== 'unavailable');
  return (
    <span className="msg-split">
      <button type="button" className="msg-action" disabled={busy} onClick={() => regenerate(message.id, null)}>
        Regenerate
      </button>
      <details className="msg-menu" ref={popover}>
        <summary className={`msg-action msg-menu-toggle${busy ? ' is-disabled' : ''}`} aria-label="Regenerate with…" aria-disabled={busy || undefined} onClick={(event) => busy && event.preventDefault()}>
          ▾
        </summary>
        <div className="msg-menu-list" role="group" aria-label="Answer again with">
          <p className="msg-menu-title">Answer again with</p>
          <button type="button" className="msg-menu-item" disabled={busy} onClick={() => regenerate(message.id, null)}>
            Auto (dynamic routing)
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
  if (message.status === 'streaming') return null;
  return (
    <div className="msg-actions" role="group" aria-label="Answer actions">
      <VersionSwitcher info={versions} kind="answer" />
      {message.content ? <CopyButton text={() => message.content} label="Copy answer" /> : null}
      <RegenerateMenu message={message} />
    </div>
  );
}

/** The actions under the user's message: copy, edit. */
export function QuestionActions({ message, onEdit, versions }: { message: Message; onEdit: () => void; versions?: VersionInfo | undefined }) {
  const { busy } = useChatActions();
  if (!message.id.startsWith('msg_')) return null;
  return (
    <div className="msg-actions msg-actions-user" role="group" aria-label="Message actions">
      <VersionSwitcher info={versions} kind="question" />
      <CopyButton text={() => message.content} label="Copy message" />
      <button type="button" className="msg-action" disabled={busy} onClick={onEdit}>
        Edit
      </button>
    </div>
  );
}
