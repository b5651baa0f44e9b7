import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDb } from '../../../main/db/postgres/connection.js';
import { createThoughtsRepo } from '../../../main/db/repositories/thoughts.js';
import { migratedDatabaseUrl } from '../../support/postgres-db.js';

/** PostgreSQL's refusals as the repositories type them (main/db/errors.ts), as SQLite's are. */
describe('storage errors on PostgreSQL', () => {
  let db: PostgresDb;
  beforeAll(() => {
    db = new PostgresDb(migratedDatabaseUrl());
  });
  afterAll(() => db.close());

  it('a row whose message was deleted meanwhile is a missing reference: the step is dropped, not an error', () => {
    const thoughts = createThoughtsRepo(db);
    const stored = thoughts.insert({ id: 'th_gone', message_id: 'msg_deleted', dataset_id: null, step: 0, kind: 'plan', content: 'p', created_at: '2026-11-26T00:00:00.000Z' });
    expect(stored).toBe(false);
    expect(db.query('SELECT count(*) AS n FROM thoughts').rows).toEqual([{ n: 0 }]);
  });
});
