import { createHash } from 'node:crypto';
import { DatabaseFromFutureError } from '../../connection.js';
import type { PostgresDb } from '../connection.js';
import { pg280_baseline } from './280-baseline.js';
import { pg290_user_identities } from './290-user-identities.js';
import { pg300_instances } from './300-instances.js';

export interface PostgresMigration {
  /** The SQLite migration whose schema this one reaches (main/db/migrations/). */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every PostgreSQL migration, in order. Append only: a shipped migration is never edited (its checksum is kept). */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [pg280_baseline, pg290_user_identities, pg300_instances];

/** Any number of the same meaning to every Parley: the advisory lock under which one instance migrates. */
const MIGRATION_LOCK = 0x7061726c; // "parl"

export const checksum = (m: PostgresMigration): string => createHash('sha256').update(m.sql).digest('hex');

/** A database whose applied migration differs from this version's text of it: refused, untouched. */
export class MigrationChecksumError extends Error {
  constructor(version: number) {
    super(`The database's migration ${version} is not the one this version of Parley has: it was changed after it was applied. The database was not changed.`);
    this.name = 'MigrationChecksumError';
  }
}

/**
 * Applies every pending migration in one transaction, under a transaction-level advisory lock:
 * instances that start together wait for the first, then find nothing left to do. Each applied
 * migration is recorded with its checksum, and a recorded one that no longer matches is refused.
 */
export function migratePostgres(db: PostgresDb, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): number {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  return db.transaction(() => {
    db.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    db.query(`CREATE TABLE IF NOT EXISTS parley_migrations (
      version BIGINT PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const applied = db.query<{ version: number; checksum: string }>('SELECT version, checksum FROM parley_migrations ORDER BY version').rows;
    const newest = applied[applied.length - 1]?.version ?? 0;
    if (newest > latest) throw new DatabaseFromFutureError(db.url.replace(/\/\/[^@/]*@/, '//'), newest, latest);
    for (const row of applied) {
      const known = migrations.find((m) => m.version === row.version);
      if (known && checksum(known) !== row.checksum) throw new MigrationChecksumError(row.version);
    }
    for (const m of migrations.filter((m) => m.version > newest)) {
      db.query(m.sql);
      db.query('INSERT INTO parley_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)', [m.version, m.name, checksum(m), new Date().toISOString()]);
    }
    return latest;
  })();
}
