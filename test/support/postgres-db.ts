/**
 * A fresh, empty database on the tests' PostgreSQL for each test that asks, so tests never see
 * each other's rows. Synchronous, because the core boots synchronously (test/support/postgres-psql.ts).
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { TEST_DATABASE_PREFIX, psqlSync } from './postgres-psql.js';

/** The server the run's global setup provides, else PARLEY_TEST_POSTGRES_URL. */
function runServerUrl(): string {
  const url = (inject('postgresUrl') as string | undefined) ?? process.env.PARLEY_TEST_POSTGRES_URL;
  if (!url) throw new Error('No test PostgreSQL: this vitest project has no test/support/postgres-global-setup.ts, and PARLEY_TEST_POSTGRES_URL is not set.');
  return url;
}

/**
 * Creates a new, empty, uniquely named UTF-8 database with C collation on `serverUrl` (the run's
 * server by default) and returns its URL. Nothing is created inside it (not even pgvector).
 */
export function freshDatabaseUrl(serverUrl: string = runServerUrl(), template = 'template0'): string {
  const run = (inject('postgresRun') as string | undefined) ?? '';
  const name = `${TEST_DATABASE_PREFIX}${run}${randomBytes(6).toString('hex')}`;
  psqlSync(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A new database already holding Parley's schema: a copy of the run's migrated template (the
 * global setup's), so a core booting on it finds its migrations applied, checksums and all.
 */
export function migratedDatabaseUrl(): string {
  return freshDatabaseUrl(runServerUrl(), inject('postgresTemplate'));
}
