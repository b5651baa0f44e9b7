import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';
import { threadHref } from './chat-hash.js';
import { GROUP_TITLE, groupThreads } from './thread-groups.js';
import { ThreadMenu } from './ThreadMenu.js';
import type { Thread, ThreadListItem } from './types.js';
import { markedRuns, markWords, type MarkWords } from '../datasets/search-marks.js';
import { exportThread } from './thread-export.js';
import { toast } from '../../ui/toast.js';
import { errorText } from '../../ui/error-text.js';

export interface ThreadListProps {
  threads: ThreadListItem[] | null;
  error: string | null;
  selected: string | null;
  query: string;
  onQuery: (q: string) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
  /**
   * Threads whose answer is being written (here or in the background): marked "answering…", and
   * not renamed or deleted under it. Every other thread, and New chat, stays usable meanwhile.
   */
  answering: ReadonlySet<string>;
}

interface ThreadRowProps {
  thread: ThreadListItem;
  /** The searched words, marked in the snippet of a thread found by a message. */
  words: MarkWords;
  selected: boolean;
  /** The list's one Tab stop (roving tabindex): this row's link is in the Tab order. */
  current: boolean;
  /** Its answer is being written. */
  answering: boolean;
  onRename: (title: string) => Promise<void>;
  onAskDelete: () => void;
}

function ThreadRow({ thread, words, selected, current, answering, onRename, onAskDelete }: ThreadRowProps) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(thread.title);
  // After Enter or Esc in the title field, focus goes back to the thread, not to the page's start.
  const [refocus, setRefocus] = useState(false);
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (!editing && refocus) {
      link.current?.focus();
      setRefocus(false);
    }
  }, [editing, refocus]);
  if (editing) {
    return (
      <li className="thread-item">
        <form
          className="thread-rename"
          onSubmit={(event) => {
            event.preventDefault();
            const next = title.trim();
            if (next && next !== thread.title) void onRename(next);
            setRefocus(true);
            setEditing(false);
          }}
        >
          <input
            className="input input-sm"
            aria-label={intl.formatMessage({ id: 'chat.threads.titleInput' })}
            value={title}
            autoFocus
            maxLength={200}
            onChange={(event) => setTitle(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                setRefocus(true);
                setEditing(false);
              }
            }}
            onBlur={() => setEditing(false)}
          />
        </form>
      </li>
    );
  }
  return (
    <li className={`thread-item${selected ? ' is-selected' : ''}`} data-thread={thread.id}>
      <a ref={link} className="thread-link" href={threadHref(thread.id, thread.match?.message_id)} tabIndex={current ? 0 : -1} aria-current={selected ? 'page' : undefined} title={thread.title}>
        {thread.match ? (
          <>
            <span className="thread-link-title">{thread.title}</span>
            {/* What was said where the search found it; opening goes to that message. */}
            <span className="thread-snippet">{markedRuns(thread.match.snippet, words).map((run, i) => (run.marked ? <mark key={i}>{run.text}</mark> : run.text))}</span>
          </>
        ) : (
          thread.title
        )}
        {answering ? (
          <span className="thread-answering">
            <FormattedMessage id="chat.threads.answering" />
          </span>
        ) : null}
      </a>
      <span className="thread-actions">
        <ThreadMenu
          title={thread.title}
          disabled={answering}
          onRename={() => {
            setTitle(thread.title);
            setEditing(true);
          }}
          onDelete={onAskDelete}
          onExport={(format) => {
            exportThread(thread.id, format, intl).catch((error: unknown) => toast.error(intl.formatMessage({ id: 'chat.threads.exportFailed' }), errorText(error, intl)));
          }}
        />
      </span>
    </li>
  );
}

/**
 * The list's keys, as in a WAI-ARIA composite: ↑ ↓ Home End move between threads, → to the
 * thread's actions button and ← back, Shift+F10 or the context-menu key opens its actions.
 */
function onListKey(event: KeyboardEvent<HTMLDivElement>): void {
  const target = event.target as HTMLElement;
  // The actions menu and the title field have keys of their own.
  if (target.closest('[role="menu"], form')) return;
  const row = target.closest<HTMLElement>('.thread-item');
  const links = [...event.currentTarget.querySelectorAll<HTMLElement>('.thread-link')];
  const own = row?.querySelector<HTMLElement>('.thread-link');
  const at = own ? links.indexOf(own) : -1;
  if (!row || at < 0) return;
  const menuButton = row.querySelector<HTMLButtonElement>('.thread-menu-button:not(:disabled)');
  let next: HTMLElement | null | undefined;
  if (event.key === 'ArrowDown') next = links[Math.min(at + 1, links.length - 1)];
  else if (event.key === 'ArrowUp') next = links[Math.max(at - 1, 0)];
  else if (event.key === 'Home') next = links[0];
  else if (event.key === 'End') next = links.at(-1);
  else if (event.key === 'ArrowRight') next = menuButton;
  else if (event.key === 'ArrowLeft') next = own;
  else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
    event.preventDefault();
    menuButton?.click();
    return;
  } else return;
  event.preventDefault();
  next?.focus();
}

/**
 * The user's threads, newest first in date groups (Today, Yesterday, …), with search, rename and
 * delete. The list is one Tab stop (a roving tabindex: the thread last focused, else the open one,
 * else the first); arrows move within it, and each thread's Rename and Delete are in its menu.
 */
export function ThreadList({ threads, error, selected, query, onQuery, onRename, onDelete, answering }: ThreadListProps) {
  const intl = useIntl();
  const [deleting, setDeleting] = useState<Thread | null>(null);
  const groupId = useId();
  const [focused, setFocused] = useState<string | null>(null);
  const words = useMemo(() => markWords(query), [query]);
  const present = (id: string | null) => id !== null && (threads ?? []).some((t) => t.id === id);
  const current = present(focused) ? focused : present(selected) ? selected : (threads?.[0]?.id ?? null);
  const remove = useAction(async (thread: Thread) => {
    await onDelete(thread.id);
    setDeleting(null);
  });
  return (
    <nav className="thread-panel" aria-label={intl.formatMessage({ id: 'chat.threads.label' })}>
      <Button className="thread-new" icon={<PlusIcon size={16} />} onClick={() => (window.location.hash = threadHref(null))}>
        <FormattedMessage id="chat.threads.newChat" />
      </Button>
      <input className="input input-sm" type="search" aria-label={intl.formatMessage({ id: 'chat.threads.search' })} placeholder={intl.formatMessage({ id: 'chat.threads.search' })} value={query} onChange={(event) => onQuery(event.target.value)} />
      {error ? <p className="field-error">{error}</p> : null}
      {threads === null ? (
        <Skeleton shape="list" label={intl.formatMessage({ id: 'chat.threads.loading' })} />
      ) : threads.length === 0 ? (
        <p className="muted thread-empty">
          <FormattedMessage id={query ? 'chat.threads.noMatch' : 'chat.threads.empty'} />
        </p>
      ) : (
        <div
          className="thread-groups"
          onKeyDown={onListKey}
          onFocus={(event) => {
            const id = event.target.closest<HTMLElement>('.thread-item')?.dataset['thread'];
            if (id) setFocused(id);
          }}
        >
          {groupThreads(threads, new Date()).map(({ group, threads: inGroup }) => (
            <section key={group} className="thread-group" aria-labelledby={`${groupId}-${group}`}>
              <h2 className="thread-group-title" id={`${groupId}-${group}`}>
                <FormattedMessage id={GROUP_TITLE[group]} />
              </h2>
              <ul className="thread-list">
                {inGroup.map((t) => (
                  <ThreadRow key={t.id} thread={t} words={words} selected={t.id === selected} current={t.id === current} answering={answering.has(t.id)} onRename={(title) => onRename(t.id, title)} onAskDelete={() => setDeleting(t)} />
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={intl.formatMessage({ id: 'chat.threads.deleteTitle' })}
        confirmLabel={intl.formatMessage({ id: 'chat.threads.deleteConfirm' })}
        tone="danger"
        busy={remove.busy}
        error={remove.error}
        onCancel={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() => deleting && void remove.run(deleting)}
      >
        <p>
          <FormattedMessage id="chat.threads.deleteText" values={{ title: deleting?.title ?? '', b: (chunks) => <strong>{chunks}</strong> }} />
        </p>
      </ConfirmDialog>
    </nav>
  );
}
