/*
 * Notices between the instances sharing one database (issue 33), so work one process holds in
 * memory can be reached from a request that came to another: on SQLite (one process) they stay in
 * the process; on PostgreSQL they go through LISTEN/NOTIFY (./postgres/notices.ts).
 */
import { EventEmitter } from 'node:events';
import { PostgresNotices } from './postgres/notices.js';
import type { Storage } from './storage.js';
import type { NoticeKind } from './notice-kinds.js';

export type { NoticeKind } from './notice-kinds.js';

export interface NoticesPort {
  /** True when notices reach other processes (PostgreSQL); false when they stay in this one. */
  readonly shared: boolean;
  /** Tells every instance, this one included; a notice is lost if nobody listens (never queued). */
  publish(kind: NoticeKind, id: string): void;
  /** Calls `handler` with the id of each notice of `kind`, from any instance; answers the unsubscribe. */
  on(kind: NoticeKind, handler: (id: string) => void): () => void;
}

/** One process on SQLite: a notice reaches this process's own listeners, at once. */
export class LocalNotices implements NoticesPort {
  readonly shared: boolean = false;
  readonly #events = new EventEmitter();

  constructor() {
    // Every answer being cancelled waits on `answer.ended` for a moment: many at once is normal.
    this.#events.setMaxListeners(0);
  }

  publish(kind: NoticeKind, id: string): void {
    this.#events.emit(kind, id);
  }

  on(kind: NoticeKind, handler: (id: string) => void): () => void {
    this.#events.on(kind, handler);
    return () => void this.#events.off(kind, handler);
  }

  close(): Promise<void> {
    this.#events.removeAllListeners();
    return Promise.resolve();
  }
}

export type Notices = NoticesPort & { close(): Promise<void> };

/** The notices of the database a core runs on: LISTEN/NOTIFY on PostgreSQL, this process alone on SQLite. */
export function openNotices(storage: Storage, log: { info(message: string): void; warn(message: string): void }): Notices {
  if (storage.kind === 'sqlite') return new LocalNotices();
  const { db } = storage;
  return new PostgresNotices({
    url: db.url,
    // Through the storage's own connection: a notice goes out even while the listening one reconnects.
    notify: (channel, payload) => void db.query('SELECT pg_notify($1, $2)', [channel, payload]),
    log,
  });
}
