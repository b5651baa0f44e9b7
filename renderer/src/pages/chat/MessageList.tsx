import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { MessageView } from './MessageView.js';
import type { ShownMessage } from './branches.js';
import type { Model } from './types.js';
import type { MarkWords } from '../datasets/search-marks.js';
import { paintSearchedWords } from './search-hit.js';

/** The message a thread search found (`#/chat/thr_…?m=msg_…`) and the searched words to paint in it. */
export interface SearchHit {
  messageId: string;
  words: MarkWords;
}

/**
 * The thread's messages, virtualised: only those in view (and a few around) are in the DOM, each
 * measured once rendered, so a 10,000-message thread scrolls like a short one. The view follows
 * the end while the reader is at the end, and stays put when they scrolled up to read. A thread
 * opened from a search result opens at the message found instead, outlined, its words painted.
 */
export function MessageList({ shown, models, hit = null }: { shown: ShownMessage[]; models: Map<string, Model>; hit?: SearchHit | null }) {
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
  /** The search hit already scrolled to: once, not again as answers arrive. */
  const scrolledTo = useRef<string | null>(null);
  const focused = useRef<string | null>(null);
  useEffect(() => {
    atEnd.current = true;
    scrolledTo.current = null;
    focused.current = null;
  }, [first]);

  const last = messages.at(-1);
  useEffect(() => {
    if (atEnd.current && messages.length > 0) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, last?.content, last?.status, virtualizer]);

  // After the follow above: a search hit wins over the end, and the view stays there.
  const hitId = hit?.messageId ?? null;
  const hitIndex = hitId === null ? -1 : messages.findIndex((m) => m.id === hitId);
  useEffect(() => {
    if (hitId === null) scrolledTo.current = focused.current = null;
    if (hitIndex < 0 || scrolledTo.current === hitId) return;
    scrolledTo.current = hitId;
    atEnd.current = false;
    virtualizer.scrollToIndex(hitIndex, { align: 'center' });
  }, [hitId, hitIndex, virtualizer]);
  const hitRow = useCallback(
    (row: HTMLDivElement | null) => {
      virtualizer.measureElement(row);
      if (!row || !hit) return undefined;
      // Keyboard and screen reader users land on the message they chose, once.
      if (focused.current !== hit.messageId) {
        focused.current = hit.messageId;
        row.focus({ preventScroll: true });
      }
      return paintSearchedWords(row, hit.words);
    },
    [hit, virtualizer],
  );

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
          if (entry.message.id === hitId) {
            return (
              <div key={item.key} ref={hitRow} data-index={item.index} className="message-row is-search-hit" tabIndex={-1} role="group" aria-label={intl.formatMessage({ id: 'chat.messages.searchHit' })} style={{ transform: `translateY(${item.start}px)` }}>
                <MessageView message={entry.message} models={models} versions={entry} />
              </div>
            );
          }
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
