import { describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../../main/db/migrations/index.js';
import { checksum, POSTGRES_MIGRATIONS } from '../../../main/db/postgres/migrations/index.js';

/**
 * PostgreSQL's migrations (main/db/postgres/migrations/) beside SQLite's: the same schema version
 * at the end, and, once shipped, never edited — a server's `parley_migrations` records each one's
 * checksum, and Parley refuses a database whose record differs (test/contract/postgres/instances.test.ts).
 */
const SHIPPED: Record<number, string> = {
  280: '5f5edfed267c051bdc23beff078c04fc2fc31568e58f7ccefada90013e534265',
  290: '624cc30b1a1e8a1edf701b39726ca05944c57852bb5a3524eb9e315640aa2236',
  300: 'a55295aee3b1ed5c521420bbc74d4552fb10f9560fad99ebbe9595ea3acf48b2',
};

describe('PostgreSQL migrations', () => {
  it('reach the version SQLite’s do: each SQLite migration from the baseline on has its PostgreSQL twin', () => {
    const baseline = POSTGRES_MIGRATIONS[0]!.version;
    expect(POSTGRES_MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.filter((m) => m.version >= baseline).map((m) => m.version));
    expect(POSTGRES_MIGRATIONS.at(-1)?.version).toBe(LATEST_VERSION);
  });

  it('are never edited once shipped', () => {
    for (const m of POSTGRES_MIGRATIONS) expect(checksum(m), `PostgreSQL migration ${m.version}`).toBe(SHIPPED[m.version]);
    expect(Object.keys(SHIPPED).map(Number)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
  });
});
