import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';

export interface ComposerProps {
  generating: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
  /** Pickers shown in the composer's toolbar. */
  tools: ReactNode;
  /** A message the service never took: its text goes back into the box (a new object each time). */
  restore?: { text: string } | null;
}

/**
 * Where a message is written. Enter sends, Shift+Enter starts a new line; while an answer is being
 * written the text area is disabled and Stop (or Esc) ends the answer.
 */
export function Composer({ generating, onSend, onStop, tools, restore }: ComposerProps) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!generating) area.current?.focus({ preventScroll: true });
  }, [generating]);

  // The box was emptied on send and stayed disabled since, so nothing typed meanwhile is lost.
  useEffect(() => {
    if (restore) setText(restore.text);
  }, [restore]);

  useEffect(() => {
    if (!generating) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onStop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [generating, onStop]);

  // The text area grows with its text (up to the CSS max-height, then it scrolls).
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [text]);

  const submit = () => {
    if (generating || text.trim() === '') return;
    onSend(text);
    setText('');
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="composer-input" className="visually-hidden">
        <FormattedMessage id="chat.composer.label" />
      </label>
      <textarea
        id="composer-input"
        ref={area}
        className="composer-input"
        rows={2}
        placeholder={intl.formatMessage({ id: 'chat.composer.placeholder' })}
        value={text}
        disabled={generating}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="composer-bar">
        <div className="composer-tools">{tools}</div>
        {generating ? (
          <Button variant="secondary" onClick={onStop} aria-keyshortcuts="Escape">
            <FormattedMessage id="chat.composer.stop" />
          </Button>
        ) : (
          <Button variant="primary" type="submit" disabled={text.trim() === ''}>
            <FormattedMessage id="chat.composer.send" />
          </Button>
        )}
      </div>
    </form>
  );
}
