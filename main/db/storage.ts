import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml, TomlError } from 'smol-toml';
import { openDatabase, type Db, type MigrationProgressListener } from './connection.js';
import { PostgresDb } from './postgres/connection.js';
import { migratePostgres } from './postgres/migrations/index.js';
import type { SqlDb } from './sql.js';

export type StorageKind = 'sqlite' | 'postgres';

/** The database a core runs on: SQLite in the data directory, or a PostgreSQL server (the team server). */
export type Storage = ({ kind: 'sqlite'; db: Db; file: string } | { kind: 'postgres'; db: PostgresDb }) & {
  /**
   * Runs start-up's seeding of an empty database in one transaction, alone: on PostgreSQL under an
   * advisory lock, so instances starting together seed it once (SQLite has one process).
   */
  startingAlone<T>(fn: () => T): T;
};

/** The advisory lock instances take to seed an empty database (the migrations' is another). */
const START_LOCK = 0x70617273; // "pars"

export interface StorageOptions {
  dataDir: string;
  /** `postgres://…`: PostgreSQL; none: SQLite in the data directory. */
  databaseUrl?: string | undefined;
  nativeBinding?: string | undefined;
  log?: ((line: string) => void) | undefined;
  onMigrationProgress?: MigrationProgressListener | undefined;
}

/** A database URL that is not PostgreSQL's, or one that cannot be reached: said before anything starts. */
export class StorageUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageUrlError';
  }
}

/**
 * The URL without its password, for messages and logs. A password may hold `@` or `/` (the parser
 * takes the last `@`), so one that parses is redacted through the parser; one that does not loses
 * everything between `//` and its last `@`, user included.
 */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/^([^:/]*:\/\/)[^]*@/, '$1***@');
  }
}

/** `text` with the URL's password (as written and as decoded) replaced, for errors a driver words. */
function withoutPassword(text: string, url: string): string {
  let password = '';
  try {
    password = new URL(url).password;
  } catch {
    return text;
  }
  if (!password) return text;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // A stray `%`: the raw form is the one to hide.
  }
  return text.split(password).join('***').split(decoded).join('***');
}

function checkedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StorageUrlError(`The database URL ${JSON.stringify(redactedUrl(url))} is not a URL: give postgres://user:password@host:5432/database.`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StorageUrlError(`The database URL must start with postgres:// (PostgreSQL); without one Parley uses SQLite in its data directory. Got ${parsed.protocol}//…`);
  }
  return url;
}

/**
 * Where the database is: `--database-url` (given here), else PARLEY_DATABASE_URL, else
 * `[storage] database_url` of the data directory's parley.toml (read before anything else: the
 * rest of the configuration lives in the database it names), else none (SQLite).
 */
export function databaseUrlFor(dataDir: string, given: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (given) return given;
  if (env.PARLEY_DATABASE_URL) return env.PARLEY_DATABASE_URL;
  const file = join(dataDir, 'parley.toml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = parseToml(text);
  } catch (error) {
    // A file naming a database it cannot be read for must not quietly run on SQLite instead (a
    // second instance writing its own database). Without database_url the configuration's own
    // load says what is wrong, falling back to its last good version as always.
    if (!/^\s*database_url\s*=/m.test(text)) return undefined;
    const where = error instanceof TomlError ? ` (line ${error.line}, column ${error.column})` : '';
    throw new StorageUrlError(`${file} names a database_url but is not valid TOML${where}: mend it, or give --database-url / PARLEY_DATABASE_URL.`);
  }
  const storage = (parsed as { storage?: unknown }).storage;
  if (storage === undefined) return undefined;
  const url = typeof storage === 'object' && storage !== null && !Array.isArray(storage) ? (storage as { database_url?: unknown }).database_url : storage;
  if (url === undefined) return undefined;
  if (typeof url !== 'string' || !url || url === storage) {
    throw new StorageUrlError(`[storage] database_url in ${file} must be a postgres:// URL in quotes; remove it to use SQLite.`);
  }
  return url;
}

/** The SQLite database of a data directory. */
export const sqliteFile = (dataDir: string): string => join(dataDir, 'parley.db');

/** Opens and migrates the database. */
export function openStorage(options: StorageOptions): Storage {
  if (options.databaseUrl) {
    const url = checkedUrl(options.databaseUrl);
    let db: PostgresDb;
    try {
      db = new PostgresDb(url, 'parley');
    } catch (error) {
      const reason = withoutPassword((error as Error).message, url).split('\n')[0];
      throw new StorageUrlError(`PostgreSQL at ${redactedUrl(url)} could not be reached: ${reason}`);
    }
    try {
      migratePostgres(db);
      return { kind: 'postgres', db, startingAlone: (fn) => db.transaction(() => (db.query('SELECT pg_advisory_xact_lock($1)', [START_LOCK]), fn()))() };
    } catch (error) {
      db.close();
      throw error;
    }
  }
  const file = sqliteFile(options.dataDir);
  const db = openDatabase(file, { nativeBinding: options.nativeBinding, log: options.log, onMigrationProgress: options.onMigrationProgress });
  return { kind: 'sqlite', db, file, startingAlone: (fn) => db.transaction(fn)() };
}

export type { SqlDb };
