import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { TEST_DATABASE_PREFIX, psqlSync } from './postgres-psql.js';
import { startTestPostgres } from './postgres-server.js';
import { PostgresDb } from '../../main/db/postgres/connection.js';
import { migratePostgres } from '../../main/db/postgres/migrations/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL server the run's files create their databases on (test/support/postgres-db.ts). */
    postgresUrl: string;
    /** Lowercase hex in the name of every database this run creates, so that only they are dropped after. */
    postgresRun: string;
    /** A database migrated once for the run: the cores' databases are copies of it (migratedDatabaseUrl). */
    postgresTemplate: string;
  }
}

/**
 * A database with Parley's schema, made once: copying it (CREATE DATABASE … TEMPLATE) is some
 * 0.4 s faster a core than migrating an empty one, and the contract files boot a few hundred cores.
 */
function migratedTemplate(serverUrl: string, run: string): string {
  const name = `${TEST_DATABASE_PREFIX}${run}template`;
  psqlSync(serverUrl, `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = new PostgresDb(url.toString());
  try {
    migratePostgres(db);
  } finally {
    // A template is copied only while nobody is connected to it.
    db.close();
  }
  return name;
}

/**
 * Runs once before a project's files: starts the tests' PostgreSQL (test/support/postgres-server.ts)
 * and hands its URL to them, or hands them PARLEY_TEST_POSTGRES_URL's server when that is set.
 * Returns the teardown: stop the server it started, or drop the databases this run made on the
 * other one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = randomBytes(3).toString('hex');
  project.provide('postgresRun', run);
  const external = process.env.PARLEY_TEST_POSTGRES_URL;
  if (external) {
    project.provide('postgresUrl', external);
    project.provide('postgresTemplate', migratedTemplate(external, run));
    return async () => {
      const names = psqlSync(external, `SELECT datname FROM pg_database WHERE datname LIKE '${TEST_DATABASE_PREFIX}${run}%'`);
      for (const name of names.split('\n').filter(Boolean)) psqlSync(external, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
  }
  const server = await startTestPostgres();
  project.provide('postgresUrl', server.url);
  project.provide('postgresTemplate', migratedTemplate(server.url, run));
  return () => server.stop();
}
