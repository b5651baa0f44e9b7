/**
 * `psql` for the tests' PostgreSQL, synchronously (the core boots synchronously): the one fetched
 * beside the server (scripts/models/test-postgres.ts), else the PATH's. No vitest import, so the
 * global setup can use it too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgresBinDir } from '../../scripts/models/test-postgres.js';

/** Every database the tests create is named `parley_t_<run><random>`. */
export const TEST_DATABASE_PREFIX = 'parley_t_';

function psql(): string {
  const fetched = join(postgresBinDir(), 'psql');
  return existsSync(fetched) ? fetched : 'psql';
}

/** Runs SQL through psql on `url`, returning its unaligned, tuples-only output. */
export function psqlSync(url: string, sql: string): string {
  try {
    return execFileSync(psql(), ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      // The URL says everything; a developer's PG* variables must not add to it.
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
    });
  } catch (error) {
    const { stderr = '' } = error as { stderr?: string };
    throw new Error(`psql on the test PostgreSQL failed for ${JSON.stringify(sql)}: ${stderr.trim() || String(error)}`);
  }
}
