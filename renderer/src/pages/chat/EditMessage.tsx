import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { useChatActions } from './actions.js';
import type { Message } from './types.js';

/**
 * A user message being edited in place. Sending adds the new version (and its answer) after the
 * thread's newest message; the old message and its answer stay where they are.
 */
export function EditMessage({ message, onDone }: { message: Message; onDone: () => void }) {
  const { busy, edit } = useChatActions();
  const [text, setText] = useState(message.content);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    area.current?.focus();
    area.current?.select();
  }, []);
  const send = () => {
    if (busy || text.trim() === '') return;
    edit(message.id, text);
    onDone();
  };
  return (
    <form
      className="edit-message"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label className="visually-hidden" htmlFor={`edit-${message.id}`}>
        <FormattedMessage id="chat.edit.label" />
      </label>
      <textarea
        id={`edit-${message.id}`}
        ref={area}
        className="input edit-message-input"
        value={text}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            send();
          }
        }}
      />
      <p className="edit-message-note">
        <FormattedMessage id="chat.edit.note" />
      </p>
      <div className="edit-message-bar">
        <Button size="sm" variant="ghost" onClick={onDone}>
          <FormattedMessage id="chat.edit.cancel" />
        </Button>
        <Button size="sm" variant="primary" type="submit" disabled={busy || text.trim() === '' || text === message.content}>
          <FormattedMessage id="chat.edit.send" />
        </Button>
      </div>
    </form>
  );
}
