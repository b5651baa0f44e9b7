import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { LATEST_VERSION, MIGRATIONS, type Migration } from './migrations/index.js';

export type Db = Database.Database;

export class DatabaseFromFutureError extends Error {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `The database ${file} was written by a newer version of Parley (schema ${found}; this version knows up to ${supported}). ` +
        'Update Parley, or point it at another data directory. The database was not changed.',
    );
    this.name = 'DatabaseFromFutureError';
  }
}

export interface OpenOptions {
  /** Path of a better-sqlite3 build for another ABI (Electron's); the Node build by default. */
  nativeBinding?: string;
  migrations?: readonly Migration[];
  /** Where to say that sqlite-vec could not be loaded (default: console.warn). */
  log?: (line: string) => void;
}

const vectorExtension = new WeakMap<Db, boolean>();

/**
 * Loads sqlite-vec into this connection, once; openDatabase does it for every connection. Its
 * binary ships inside a per-platform npm package; where none fits (or the file cannot be loaded),
 * vector search is off and retrieval ranks by keywords only: said once per connection in one log line.
 */
export function loadVectorExtension(db: Db, log: (line: string) => void = (line) => console.warn(line)): boolean {
  let ok = vectorExtension.get(db);
  if (ok === undefined) {
    try {
      sqliteVec.load(db);
      ok = true;
    } catch (error) {
      ok = false;
      log(`[retrieval] sqlite-vec could not be loaded (${error instanceof Error ? error.message : String(error)}): vector search is off, retrieval ranks by keywords only`);
    }
    vectorExtension.set(db, ok);
  }
  return ok;
}

/** Whether sqlite-vec is loaded on this connection. */
export function hasVectorExtension(db: Db): boolean {
  return vectorExtension.get(db) === true;
}

/** Opens (or creates) the database, sets the pragmas Parley relies on and applies pending migrations. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    loadVectorExtension(db, options.log);
    migrate(db, file, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * A second, read-only connection to a database another connection has opened (and migrated): for
 * reads in a worker thread. WAL lets it read one consistent snapshot while the app keeps writing;
 * it never writes, migrates or loads extensions.
 */
export function openReadOnlyDatabase(file: string, options: Pick<OpenOptions, 'nativeBinding'> = {}): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Applies every pending migration in one transaction, so a failure leaves the database as it was. */
export function migrate(db: Db, file: string, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations === MIGRATIONS ? LATEST_VERSION : (migrations[migrations.length - 1]?.version ?? 0);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) throw new DatabaseFromFutureError(file, current, latest);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  db.transaction(() => {
    for (const m of pending) db.exec(m.sql);
    db.pragma(`user_version = ${latest}`);
  })();
  return latest;
}
