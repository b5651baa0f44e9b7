import Database from 'better-sqlite3';
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
}

/** Opens (or creates) the database, sets the pragmas Parley relies on and applies pending migrations. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, file, options.migrations ?? MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
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
