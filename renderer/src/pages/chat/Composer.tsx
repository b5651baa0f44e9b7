import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';
import type { ChatImage } from './chat-images.js';
import { AttachButton, AttachmentChips, useFileDrop } from './ComposerAttachments.js';
import type { Attachments } from './useAttachments.js';

export interface ComposerProps {
  generating: boolean;
  /** The text, and the images attached to go with it (documents are in the thread's files by then). */
  onSend: (text: string, images: ChatImage[]) => void;
  onStop: () => void;
  /** Pickers shown in the composer's toolbar. */
  tools: ReactNode;
  /** A message the service never took: its text goes back into the box (a new object each time). */
  restore?: { text: string } | null;
  /** Files attached to the next message (paperclip, paste, drop), and the picker's filter. */
  attachments?: { files: Attachments; accept: string | undefined };
}

/**
 * Where a message is written. Enter sends, Shift+Enter starts a new line; while an answer is being
 * written the text area is disabled and Stop (or Esc) ends the answer.
 */
export function Composer({ generating, onSend, onStop, tools, restore, attachments }: ComposerProps) {
  const intl = useIntl();
  const [text, setText] = useState('');
  const area = useRef<HTMLTextAreaElement>(null);
  const files = attachments?.files;
  /** A message sent while its attachments were still on their way: it goes once they are ready. */
  const [queued, setQueued] = useState(false);
  const dragging = useFileDrop((dropped) => files?.add(dropped), files !== undefined && !generating);

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

  const sendNow = () => {
    onSend(text, files?.take() ?? []);
    setText('');
  };

  const submit = () => {
    if (generating || text.trim() === '') return;
    if (files && (files.busy || files.failed)) return setQueued(!files.failed);
    sendNow();
  };

  // The attachments a queued message waited for are there: it goes, unless one failed (its chip
  // says why) or they went with another chat opened meanwhile (the text stays in the box).
  useEffect(() => {
    if (!queued || !files || files.busy) return;
    setQueued(false);
    if (!files.failed && files.items.length > 0) sendNow();
  });

  return (
    <form
      className={dragging ? 'composer composer-dropping' : 'composer'}
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
        disabled={generating || queued}
        onChange={(event) => setText(event.target.value)}
        onPaste={(event) => {
          const pasted = [...event.clipboardData.files];
          if (!files || pasted.length === 0) return;
          event.preventDefault();
          files.add(pasted);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      {files ? <AttachmentChips attachments={files} disabled={generating || queued} /> : null}
      {dragging ? (
        <p className="composer-drop-hint" aria-hidden="true">
          <FormattedMessage id="chat.attach.drop" />
        </p>
      ) : null}
      {queued || files?.failed ? (
        <p className="composer-attach-note" role="status">
          <FormattedMessage id={queued ? 'chat.attach.waiting' : 'chat.attach.blocked'} />
        </p>
      ) : null}
      <div className="composer-bar">
        <div className="composer-tools">
          {attachments ? <AttachButton attachments={attachments.files} accept={attachments.accept} disabled={generating || queued} /> : null}
          {tools}
        </div>
        {queued ? (
          <Button variant="secondary" onClick={() => setQueued(false)}>
            <FormattedMessage id="chat.attach.cancelSend" />
          </Button>
        ) : generating ? (
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
