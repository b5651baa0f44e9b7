import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Button } from '../../ui/Button.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';
import { threadHref } from './chat-hash.js';
import { GROUP_TITLE, groupThreads } from './thread-groups.js';
import type { Thread } from './types.js';

export interface ThreadListProps {
  threads: Thread[] | null;
  error: string | null;
  selected: string | null;
  query: string;
  onQuery: (q: string) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
  /** While an answer is written, threads are not renamed or deleted under it. */
  locked: boolean;
}

function ThreadRow({ thread, selected, locked, onRename, onAskDelete }: { thread: Thread; selected: boolean; locked: boolean; onRename: (title: string) => Promise<void>; onAskDelete: () => void }) {
  const intl = useIntl();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(thread.title);
  if (editing) {
    return (
      <li className="thread-item">
        <form
          className="thread-rename"
          onSubmit={(event) => {
            event.preventDefault();
            const next = title.trim();
            if (next && next !== thread.title) void onRename(next);
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
    <li className={`thread-item${selected ? ' is-selected' : ''}`}>
      <a className="thread-link" href={threadHref(thread.id)} aria-current={selected ? 'page' : undefined} title={thread.title}>
        {thread.title}
      </a>
      <span className="thread-actions">
        <Button
          size="sm"
          variant="ghost"
          disabled={locked}
          aria-label={intl.formatMessage({ id: 'chat.threads.renameNamed' }, { title: thread.title })}
          onClick={() => {
            setTitle(thread.title);
            setEditing(true);
          }}
        >
          <FormattedMessage id="chat.threads.rename" />
        </Button>
        <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={locked} aria-label={intl.formatMessage({ id: 'chat.threads.deleteNamed' }, { title: thread.title })} onClick={onAskDelete}>
          <FormattedMessage id="chat.threads.delete" />
        </Button>
      </span>
    </li>
  );
}

/** The user's threads, newest first in date groups (Today, Yesterday, …), with search, rename and delete. */
export function ThreadList({ threads, error, selected, query, onQuery, onRename, onDelete, locked }: ThreadListProps) {
  const intl = useIntl();
  const [deleting, setDeleting] = useState<Thread | null>(null);
  const groupId = useId();
  const remove = useAction(async (thread: Thread) => {
    await onDelete(thread.id);
    setDeleting(null);
  });
  return (
    <nav className="thread-panel" aria-label={intl.formatMessage({ id: 'chat.threads.label' })}>
      <Button className="thread-new" icon={<PlusIcon size={16} />} disabled={locked} onClick={() => (window.location.hash = threadHref(null))}>
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
        <div className="thread-groups">
          {groupThreads(threads, new Date()).map(({ group, threads: inGroup }) => (
            <section key={group} className="thread-group" aria-labelledby={`${groupId}-${group}`}>
              <h2 className="thread-group-title" id={`${groupId}-${group}`}>
                <FormattedMessage id={GROUP_TITLE[group]} />
              </h2>
              <ul className="thread-list">
                {inGroup.map((t) => (
                  <ThreadRow key={t.id} thread={t} selected={t.id === selected} locked={locked} onRename={(title) => onRename(t.id, title)} onAskDelete={() => setDeleting(t)} />
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
