import { useId, useState } from 'react';
import { Button } from '../../ui/Button.js';
import { Skeleton } from '../../ui/Skeleton.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { PlusIcon } from '../../ui/icons.js';
import { useAction } from '../../ui/useAction.js';
import { threadHref } from './chat-hash.js';
import { groupThreads } from './thread-groups.js';
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
            aria-label="Thread title"
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
          aria-label={`Rename ${thread.title}`}
          onClick={() => {
            setTitle(thread.title);
            setEditing(true);
          }}
        >
          Rename
        </Button>
        <Button size="sm" variant="ghost" className="btn-danger-ghost" disabled={locked} aria-label={`Delete ${thread.title}`} onClick={onAskDelete}>
          Delete
        </Button>
      </span>
    </li>
  );
}

/** The user's threads, newest first in date groups (Today, Yesterday, …), with search, rename and delete. */
export function ThreadList({ threads, error, selected, query, onQuery, onRename, onDelete, locked }: ThreadListProps) {
  const [deleting, setDeleting] = useState<Thread | null>(null);
  const groupId = useId();
  const remove = useAction(async (thread: Thread) => {
    await onDelete(thread.id);
    setDeleting(null);
  });
  return (
    <nav className="thread-panel" aria-label="Threads">
      <Button className="thread-new" icon={<PlusIcon size={16} />} disabled={locked} onClick={() => (window.location.hash = threadHref(null))}>
        New chat
      </Button>
      <input className="input input-sm" type="search" aria-label="Search threads" placeholder="Search threads" value={query} onChange={(event) => onQuery(event.target.value)} />
      {error ? <p className="field-error">{error}</p> : null}
      {threads === null ? (
        <Skeleton shape="list" label="Loading threads…" />
      ) : threads.length === 0 ? (
        <p className="muted thread-empty">{query ? 'No thread has this in its title.' : 'No conversations yet. Ask something to start one.'}</p>
      ) : (
        <div className="thread-groups">
          {groupThreads(threads, new Date()).map(({ group, threads: inGroup }) => (
            <section key={group} className="thread-group" aria-labelledby={`${groupId}-${group.replace(/\W/g, '')}`}>
              <h2 className="thread-group-title" id={`${groupId}-${group.replace(/\W/g, '')}`}>
                {group}
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
        title="Delete this thread?"
        confirmLabel="Delete thread"
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
          <strong>{deleting?.title}</strong> and all its messages will be deleted. This cannot be undone.
        </p>
      </ConfirmDialog>
    </nav>
  );
}
