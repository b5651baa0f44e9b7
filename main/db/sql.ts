/**
 * What the repositories need of a database connection: prepared statements, scripts and
 * transactions, synchronous. better-sqlite3's connection is one (the desktop's SQLite); the
 * PostgreSQL connection (./postgres/connection.ts) is the other, for the team server. The shapes
 * are better-sqlite3's, so the repositories' SQL and calls stay the same on both.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ArgumentTypes<F extends (...params: any[]) => unknown> = F extends (...args: infer A) => unknown ? A : never;

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** `P`: the parameters, positional, or `[{ name: value }]` for named ones (`@name`). */
export interface SqlStatement<P extends unknown[] = unknown[], R = unknown> {
  run(...params: P): RunResult;
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
  /** Rows as their first column only. */
  pluck(toggle?: boolean): this;
  /** Rows as arrays of their columns. */
  raw(toggle?: boolean): this;
}

export interface SqlDb {
  /** Which engine: SQL that differs between them (full-text search, vectors) asks. */
  readonly dialect?: 'sqlite' | 'postgres';
  // better-sqlite3's signature: an object type stands for one object of named parameters.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  prepare<P extends unknown[] | {} = unknown[], R = unknown>(source: string): P extends unknown[] ? SqlStatement<P, R> : SqlStatement<[P], R>;
  exec(source: string): unknown;
  /** Wraps `fn` so that a call runs it in one transaction (a savepoint when nested); a throw rolls it back. */
  // better-sqlite3's constraint, word for word, so its connection is one of these.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  transaction<F extends (...params: any[]) => unknown>(fn: F): (...params: ArgumentTypes<F>) => ReturnType<F>;
  readonly open: boolean;
  close(): unknown;
}

/** Whether `db` is the PostgreSQL connection. */
export const isPostgres = (db: SqlDb): boolean => db.dialect === 'postgres';
