import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { MessageView } from './MessageView.js';
import type { ShownMessage } from './branches.js';
import type { Model } from './types.js';

/**
 * The thread's messages, virtualised: only those in view (and a few around) are in the DOM, each
 * measured once rendered, so a 10,000-message thread scrolls like a short one. The view follows
 * the end while the reader is at the end, and stays put when they scrolled up to read.
 */
export function MessageList({ shown, models }: { shown: ShownMessage[]; models: Map<string, Model> }) {
  const intl = useIntl();
  const messages = shown.map((s) => s.message);
  const scroller = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  /**
   * When the reader last moved the view themselves. Only their scrolling may stop the following:
   * the list's own corrections (items measured taller or shorter than estimated) scroll too.
   */
  const lastIntent = useRef(0);
  const intent = () => {
    lastIntent.current = Date.now();
  };
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => messages[index]?.id ?? index,
  });

  // Another thread opens at its end, however far up the last one was read.
  const first = messages[0]?.thread_id;
  useEffect(() => {
    atEnd.current = true;
  }, [first]);

  const last = messages.at(-1);
  useEffect(() => {
    if (atEnd.current && messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, last?.content, last?.status, virtualizer]);

  return (
    <div
      ref={scroller}
      className="message-scroller"
      role="log"
      aria-label={intl.formatMessage({ id: 'chat.messages.label' })}
      tabIndex={0}
      onWheel={intent}
      onTouchMove={intent}
      onKeyDown={intent}
      onPointerDown={intent}
      onScroll={(event) => {
        if (Date.now() - lastIntent.current > 1000) return;
        const el = event.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      <div className="message-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const entry = shown[item.index] as ShownMessage;
          return (
            <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="message-row" style={{ transform: `translateY(${item.start}px)` }}>
              <MessageView message={entry.message} models={models} versions={entry} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
