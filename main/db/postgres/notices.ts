import pg from 'pg';
import type { NoticesPort } from '../notices.js';
import { NOTICE_KINDS, type NoticeKind } from '../notice-kinds.js';

/** The one channel every instance listens on; the payload says which notice and about what. */
export const NOTICE_CHANNEL = 'parley_notices';

const KINDS: ReadonlySet<string> = new Set<NoticeKind>(NOTICE_KINDS);

/** Waits before connecting again after the listening connection dropped: 0.5 s, doubling, at most 30 s. */
const RETRY_MS = { first: 500, max: 30_000 };

interface Options {
  url: string;
  /** Sends one notice (`SELECT pg_notify(channel, payload)`), on any connection but the listening one. */
  notify: (channel: string, payload: string) => void;
  log: { info(message: string): void; warn(message: string): void };
}

function parse(payload: string | undefined): { kind: NoticeKind; id: string } | undefined {
  if (!payload) return undefined;
  try {
    const value = JSON.parse(payload) as { kind?: unknown; id?: unknown };
    if (typeof value.kind === 'string' && KINDS.has(value.kind) && typeof value.id === 'string') return { kind: value.kind as NoticeKind, id: value.id };
  } catch {
    // Someone else's NOTIFY on our channel: not ours to read.
  }
  return undefined;
}

/**
 * Notices between instances through PostgreSQL's LISTEN/NOTIFY. The listening connection is an
 * async client of its own in this thread (the storage's connection is synchronous, in a worker:
 * ./connection.ts, so it cannot wait for notifications); it connects again, with a growing pause,
 * whenever it drops, saying so in the log: notices sent meanwhile are lost (PostgreSQL keeps none
 * for a session that is not there), and whoever waits for one gives up after its own time.
 */
export class PostgresNotices implements NoticesPort {
  readonly shared = true;
  readonly #handlers = new Map<NoticeKind, Set<(id: string) => void>>();
  #client: pg.Client | undefined;
  #closed = false;
  #retryMs = RETRY_MS.first;
  #retry: NodeJS.Timeout | undefined;
  #listening!: Promise<void>;
  #resolveListening: (() => void) | undefined;

  constructor(private readonly options: Options) {
    this.#notListening();
    void this.#connect();
  }

  /** From now until the next LISTEN goes through, `listening()` waits (a drop while it waits keeps the same wait). */
  #notListening(): void {
    if (this.#resolveListening) return;
    this.#listening = new Promise((resolve) => (this.#resolveListening = resolve));
  }

  /** Resolves once this instance hears notices (its LISTEN went through; again after a drop). */
  listening(): Promise<void> {
    return this.#listening;
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: 'parley-notices' });
    this.#client = client;
    let dropped = false;
    const drop = (why: string) => {
      if (dropped || this.#closed) return;
      dropped = true;
      if (this.#client === client) this.#client = undefined;
      this.#notListening();
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      this.options.log.warn(`The connection listening for other instances' notices (cancels) dropped (${why}); connecting again in ${this.#retryMs} ms.`);
      this.#retry = setTimeout(() => void this.#connect(), this.#retryMs);
      this.#retry.unref();
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MS.max);
    };
    client.on('error', (error) => drop(error.message));
    client.on('end', () => drop('the server closed it'));
    client.on('notification', (message) => {
      if (message.channel !== NOTICE_CHANNEL) return;
      const notice = parse(message.payload);
      if (!notice) return;
      for (const handler of [...(this.#handlers.get(notice.kind) ?? [])]) handler(notice.id);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTICE_CHANNEL}`);
    } catch (error) {
      drop(error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.#closed || dropped) return;
    if (this.#retryMs !== RETRY_MS.first) this.options.log.info("Listening for other instances' notices again.");
    this.#retryMs = RETRY_MS.first;
    this.#resolveListening?.();
    this.#resolveListening = undefined;
  }

  publish(kind: NoticeKind, id: string): void {
    try {
      this.options.notify(NOTICE_CHANNEL, JSON.stringify({ kind, id }));
    } catch (error) {
      // Shutting down (the storage closed) or the database gone: whoever waits gives up in its time.
      this.options.log.warn(`A notice to the other instances (${kind} ${id}) could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  on(kind: NoticeKind, handler: (id: string) => void): () => void {
    let set = this.#handlers.get(kind);
    if (!set) this.#handlers.set(kind, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#handlers.clear();
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
