/* The notices instances send each other (./notices.ts); a module of its own, so ./postgres/notices.ts reads them without an import cycle. */

/**
 * `answer.cancel`: stop the answer (chat message or comparison) with this id if you write it;
 * `answer.ended`: the instance writing it has stored it (after a cancel asked for it);
 * `ingest.cancel`, `download.cancel`: stop this file's processing, this download, if it runs here
 * (the asking instance has marked it); `folder.stop`, `folder.start`: stop following this folder,
 * or follow it again (a reconcile), if you follow it.
 */
export const NOTICE_KINDS = ['answer.cancel', 'answer.ended', 'ingest.cancel', 'download.cancel', 'folder.stop', 'folder.start'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];
