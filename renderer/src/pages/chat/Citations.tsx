import { useEffect, useRef, useState, type ToggleEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { humanLocation } from '../../ui/passage-location.js';
import { SourceViewer } from './SourceViewer.js';
import type { Message } from './types.js';

type Citation = Message['citations'][number];

export const citationAnchor = (messageId: string, index: number) => `source-${messageId}-${index}`;

/**
 * The passages an answer cites (and only those), each openable to the passage, highlighted, with
 * where it is in its file. `open` is the one an inline [n] asked for: it opens and takes focus.
 */
export function Citations({
  messageId = 'answer',
  citations,
  open = null,
  onToggle,
}: {
  messageId?: string;
  citations: Citation[];
  open?: number | null;
  onToggle?: (index: number | null) => void;
}) {
  const intl = useIntl();
  const list = useRef<HTMLOListElement>(null);
  /** Sources opened where no one controls which is open (the comparison page). */
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  useEffect(() => {
    if (open === null) return;
    const summary = list.current?.querySelector<HTMLElement>(`#${CSS.escape(citationAnchor(messageId, open))} summary`);
    summary?.focus({ preventScroll: true });
    summary?.scrollIntoView({ block: 'nearest' });
  }, [open, messageId]);
  if (citations.length === 0) return null;
  return (
    <div className="citations">
      <p className="citations-title">
        <FormattedMessage id="chat.citations.title" />
      </p>
      <ol className="citations-list" ref={list}>
        {citations.map((c) => {
          const where = humanLocation(c.location, intl);
          return (
            <li key={`${c.index}-${c.artifact_id}`} id={citationAnchor(messageId, c.index)}>
              <details
                className="citation"
                {...(onToggle
                  ? {
                      open: open === c.index,
                      onToggle: (event: ToggleEvent<HTMLDetailsElement>) => {
                        const isOpen = event.currentTarget.open;
                        if (isOpen !== (open === c.index)) onToggle(isOpen ? c.index : null);
                      },
                    }
                  : {
                      onToggle: (event: ToggleEvent<HTMLDetailsElement>) => {
                        const isOpen = event.currentTarget.open;
                        setOpened((was) => {
                          const next = new Set(was);
                          if (isOpen) next.add(c.index);
                          else next.delete(c.index);
                          return next;
                        });
                      },
                    })}
              >
                <summary>
                  <span className="citation-index">
                    <FormattedMessage id="chat.citations.index" values={{ index: c.index }} />
                  </span> <span className="citation-key">{c.artifact_key}</span>
                  {where ? (
                    <span className="citation-location">
                      <FormattedMessage id="chat.citations.location" values={{ where }} />
                    </span>
                  ) : null}
                </summary>
                {/* Only an open source asks for its file. */}
                {(onToggle ? open === c.index : opened.has(c.index)) ? <SourceViewer citation={c} /> : null}
              </details>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
