import { createSyncFn } from 'synckit';
import { workerScript } from '../../launch/worker-script.js';
import type { ArgumentTypes, RunResult, SqlDb, SqlStatement } from '../sql.js';
import type { WorkerCall, WorkerReply } from './protocol.js';
import { translate, type Translated } from './translate.js';

/** PostgreSQL's refusal, with its SQLSTATE (`23505` a unique row, `23503` a missing reference, …). */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail?: string,
    readonly constraint?: string,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

type Call = (call: WorkerCall) => WorkerReply;
let worker: Call | undefined;

/** The one thread of this process that holds the clients (synckit starts it on first use). */
function call(message: WorkerCall): Extract<WorkerReply, { ok: true }> {
  worker ??= createSyncFn<(call: WorkerCall) => Promise<WorkerReply>>(workerScript(import.meta.url, 'pg-worker')) as Call;
  const reply = worker(message);
  if (!reply.ok) throw new PostgresError(reply.message, reply.code, reply.detail, reply.constraint);
  return reply;
}

/** The values of a statement's `$k`s: the parameters as given (positional, or named `@name`), then what translate() made of them. */
function values(translated: Translated, params: unknown[]): unknown[] {
  let given: unknown[];
  if (translated.names) {
    const bag = (params[0] ?? {}) as Record<string, unknown>;
    given = translated.names.map((name) => {
      if (!(name in bag)) throw new RangeError(`Missing named parameter "${name}"`);
      return bag[name];
    });
  } else {
    // Arrays are lists of parameters, spread as better-sqlite3 spreads them: `run([a, b])` is `run(a, b)`.
    given = params.flatMap((param) => (Array.isArray(param) ? (param as unknown[]) : [param]));
  }
  return translated.sources.map((source) => ('value' in source ? given[source.value] : (given[source.isNull] == null) !== source.not));
}

/**
 * A connection to PostgreSQL with better-sqlite3's synchronous shape (../sql.ts), so the
 * repositories run on it unchanged: each statement is translated once (./translate.ts) and run
 * on this connection's own client in the worker thread, the calling thread waiting for the rows.
 * One connection is one session: transactions nest as savepoints, as in better-sqlite3.
 */
export class PostgresDb implements SqlDb {
  readonly dialect = 'postgres' as const;
  #id: number | undefined;
  #depth = 0;
  readonly #cache = new Map<string, Translated>();

  constructor(
    readonly url: string,
    name = 'parley',
  ) {
    this.#id = call({ op: 'open', url, name }).id;
  }

  get open(): boolean {
    return this.#id !== undefined;
  }

  #clientId(): number {
    // better-sqlite3's words for the same mistake, so isStorageClosed (db/errors.ts) knows both.
    if (this.#id === undefined) throw new TypeError('The database connection is not open');
    return this.#id;
  }

  /** Runs one statement already in PostgreSQL's dialect. */
  query<R = Record<string, unknown>>(text: string, params: unknown[] = [], array = false): { rows: R[]; rowCount: number } {
    let reply;
    try {
      reply = call({ op: 'query', id: this.#clientId(), text, values: params, array });
    } catch (error) {
      // Which statement, for whoever reads the log (an internal error's detail never reaches a client).
      if (error instanceof PostgresError) error.message += ` (in: ${text.replace(/\s+/g, ' ').slice(0, 300)})`;
      throw error;
    }
    return { rows: (reply.rows ?? []) as R[], rowCount: reply.rowCount ?? 0 };
  }

  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  prepare<P extends unknown[] | {} = unknown[], R = unknown>(source: string): P extends unknown[] ? SqlStatement<P, R> : SqlStatement<[P], R> {
    let translated = this.#cache.get(source);
    if (!translated) {
      translated = translate(source);
      this.#cache.set(source, translated);
    }
    return new PostgresStatement(this, translated) as unknown as P extends unknown[] ? SqlStatement<P, R> : SqlStatement<[P], R>;
  }

  exec(source: string): this {
    this.query(translate(source).text);
    return this;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  transaction<F extends (...params: any[]) => unknown>(fn: F): (...params: ArgumentTypes<F>) => ReturnType<F> {
    const run = (...args: ArgumentTypes<F>): ReturnType<F> => {
      const depth = this.#depth;
      const savepoint = `parley_sp${depth}`;
      this.query(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      this.#depth++;
      try {
        const result = fn(...args) as ReturnType<F>;
        this.query(depth === 0 ? 'COMMIT' : `RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        if (this.open) this.query(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${savepoint}`);
        throw error;
      } finally {
        this.#depth = depth;
      }
    };
    return run;
  }

  close(): this {
    const id = this.#id;
    this.#id = undefined;
    if (id !== undefined) call({ op: 'close', id });
    return this;
  }
}

/** `bytea` values cross from the thread as Uint8Arrays; the repositories (like better-sqlite3) hand out Buffers. */
function asBuffers(row: unknown): unknown {
  const cells = row as Record<string, unknown>;
  for (const key in cells) {
    const value = cells[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value)) cells[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return row;
}

class PostgresStatement implements SqlStatement<unknown[], unknown> {
  #pluck = false;
  #raw = false;

  constructor(
    private readonly db: PostgresDb,
    private readonly sql: Translated,
  ) {}

  #rows(params: unknown[]): { rows: unknown[]; rowCount: number } {
    const result = this.db.query(this.sql.text, values(this.sql, params), this.#pluck || this.#raw);
    const rows = result.rows.map(asBuffers);
    return { rows: this.#pluck ? (rows as unknown[][]).map((row) => row[0]) : rows, rowCount: result.rowCount };
  }

  run(...params: unknown[]): RunResult {
    return { changes: this.#rows(params).rowCount, lastInsertRowid: 0 };
  }

  get(...params: unknown[]): unknown {
    return this.#rows(params).rows[0];
  }

  all(...params: unknown[]): unknown[] {
    return this.#rows(params).rows;
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.#rows(params).rows[Symbol.iterator]();
  }

  pluck(toggle = true): this {
    this.#pluck = toggle;
    return this;
  }

  raw(toggle = true): this {
    this.#raw = toggle;
    return this;
  }
}
