/**
 * PostgreSQL for the benches (issue #33: the same figures on the team server's storage beside
 * SQLite's). `PARLEY_BENCH_POSTGRES_URL` names the server:
 * - `postgres://user@host:port/db`: a server where the bench may create and drop databases (a
 *   superuser's URL; the retrieval bench keeps its generated corpora there between runs, named
 *   `parley_bench_…`, as it keeps SQLite's in test-results/bench-cache);
 * - `test`: the tests' throwaway PostgreSQL 16 with pgvector (test/support/postgres-server.ts), started
 *   for each bench that asks and removed after it — tuned for tests (16 MB of shared buffers, no
 *   fsync), so its latencies are a small server's;
 * - unset: the benches run on SQLite only.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { psqlSync } from '../support/postgres-psql.js';
import { startTestPostgres } from '../support/postgres-server.js';
import { treeCpuSeconds } from './process-cpu.js';

export interface BenchPostgres {
  /** The server's URL, for psql (creating databases). */
  url: string;
  /** Stops the server when the bench started it; nothing for a server it was given. */
  stop(): Promise<void>;
  /** Whether databases outlive the bench (a server it was given): then corpora are kept for the next run. */
  persistent: boolean;
}

/** The server `PARLEY_BENCH_POSTGRES_URL` asks for, started when it says `test`; undefined when unset. */
export async function benchPostgres(setting = process.env.PARLEY_BENCH_POSTGRES_URL): Promise<BenchPostgres | undefined> {
  if (!setting) return undefined;
  if (setting === 'test') {
    const server = await startTestPostgres();
    return { url: server.url, stop: () => server.stop(), persistent: false };
  }
  return { url: setting, stop: async () => undefined, persistent: true };
}

/** Runs `run` with the server `PARLEY_BENCH_POSTGRES_URL` asks for (undefined when unset), stopping it after when started here. */
export async function withBenchPostgres<T>(run: (server: BenchPostgres | undefined) => Promise<T>): Promise<T> {
  const server = await benchPostgres();
  try {
    return await run(server);
  } finally {
    await server?.stop();
  }
}

/**
 * CPU seconds used so far by the server's processes (postmaster and every backend), when it runs on
 * this machine and /proc can see it; else undefined. The postmaster is found as the parent of its
 * checkpointer, a process that lives as long as it.
 */
export function serverCpu(serverUrl: string): (() => number | null) | undefined {
  const checkpointer = Number(psqlSync(serverUrl, "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'").trim());
  let postmaster: number;
  try {
    const stat = readFileSync(`/proc/${checkpointer}/stat`, 'utf8');
    // After the command name: state, then the parent's pid.
    postmaster = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
  return Number.isInteger(postmaster) && postmaster > 1 ? () => treeCpuSeconds(postmaster) : undefined;
}

/** The URL of database `name` on the server at `serverUrl`. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Whether database `name` exists. */
export const databaseExists = (serverUrl: string, name: string): boolean => psqlSync(serverUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`).trim() === '1';

/** Drops database `name` if it exists, whoever is connected. */
export const dropDatabase = (serverUrl: string, name: string): void => void psqlSync(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

/** Creates an empty UTF-8 database with C collation (as the tests' databases) and answers its URL. */
export function createDatabase(serverUrl: string, name = `parley_bench_${randomBytes(6).toString('hex')}`): { name: string; url: string } {
  psqlSync(serverUrl, `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  return { name, url: databaseUrl(serverUrl, name) };
}
