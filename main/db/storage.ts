import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
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

/** The URL without its password, for messages and logs. */
export const redactedUrl = (url: string): string => url.replace(/^(\w+:\/\/[^:/@]*):[^@/]*@/, '$1:***@');

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
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'parley.toml'), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const storage = (parseToml(text) as { storage?: { database_url?: unknown } }).storage;
    return typeof storage?.database_url === 'string' && storage.database_url ? storage.database_url : undefined;
  } catch {
    // An unreadable file is said by the configuration's own load, with where it is wrong.
    return undefined;
  }
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
      throw new StorageUrlError(`PostgreSQL at ${redactedUrl(url)} could not be reached: ${(error as Error).message}`);
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
