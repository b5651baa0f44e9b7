import { migratedDatabaseUrl } from './postgres-db.js';

/**
 * The database the tests' cores run on: the contract-postgres project (vitest.config.ts) sets
 * PARLEY_TEST_STORAGE=postgres and runs the same contract files on a fresh PostgreSQL database each.
 * Read at each call, not once: a worker may run files of both projects.
 */
export const testStorage = (): 'sqlite' | 'postgres' => (process.env.PARLEY_TEST_STORAGE === 'postgres' ? 'postgres' : 'sqlite');


/** On PostgreSQL, each data directory's database: a core started again on the same directory finds its rows. */
const databaseOf = new Map<string, string>();

/** The database of a data directory the tests use: made on first use (PostgreSQL), none on SQLite. */
export function databaseFor(dataDir: string): string | undefined {
  if (testStorage() !== 'postgres') return undefined;
  let url = databaseOf.get(dataDir);
  if (!url) databaseOf.set(dataDir, (url = migratedDatabaseUrl()));
  return url;
}

/** Boot options on the tests' storage: `bootCore(onTestStorage({ dataDir, … }))` runs on PostgreSQL in the contract-postgres project. */
export function onTestStorage<T extends { dataDir: string; databaseUrl?: string | undefined }>(options: T): T {
  return { databaseUrl: databaseFor(options.dataDir), ...options };
}

/** The environment a Parley process started on `dataDir` needs to find the same database (PARLEY_DATABASE_URL on PostgreSQL). */
export function onDatabaseOf(dataDir: string): Record<string, string> {
  const url = databaseFor(dataDir);
  return url ? { PARLEY_DATABASE_URL: url } : {};
}
