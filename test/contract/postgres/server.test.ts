import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/postgres-db.js';
import { psqlSync } from '../../support/postgres-psql.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres-server.js';

// The PostgreSQL the PostgreSQL tests run on: started by the test run itself from the fetched
// install, with pgvector, a fresh database per asker, and nothing left behind.
describe('the test PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => {
    server = await startTestPostgres();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('hands out fresh, separate UTF-8 databases synchronously', () => {
    const first = freshDatabaseUrl(server.url);
    const second = freshDatabaseUrl(server.url);
    expect(first).not.toBe(second);
    expect(new URL(first).pathname).toMatch(/^\/parley_t_[0-9a-f]+$/);
    psqlSync(first, 'CREATE TABLE only_here (id INTEGER)');
    expect(psqlSync(first, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'").trim()).toBe('1');
    expect(psqlSync(second, "SELECT count(*) FROM pg_tables WHERE tablename = 'only_here'").trim()).toBe('0');
    expect(psqlSync(second, "SELECT pg_encoding_to_char(encoding) || ' ' || datcollate FROM pg_database WHERE datname = current_database()").trim()).toBe('UTF8 C');
  });

  it('has pgvector: a vector(3) column orders by <-> distance, through the pg driver', async () => {
    const client = new pg.Client({ connectionString: freshDatabaseUrl(server.url) });
    await client.connect();
    try {
      await client.query('CREATE EXTENSION vector');
      await client.query('CREATE TABLE items (name TEXT, embedding vector(3))');
      await client.query("INSERT INTO items VALUES ('far', '[9,9,9]'), ('near', '[1,2,4]'), ('middle', '[3,3,3]')");
      const { rows } = await client.query<{ name: string }>("SELECT name FROM items ORDER BY embedding <-> '[1,2,3]' LIMIT 3");
      expect(rows.map((row) => row.name)).toEqual(['near', 'middle', 'far']);
    } finally {
      await client.end();
    }
  });

  it('stops with a fast shutdown and leaves no folder behind', async () => {
    const other = await startTestPostgres();
    const url = freshDatabaseUrl(other.url);
    expect(existsSync(other.dir)).toBe(true);
    const session = new pg.Client({ connectionString: url });
    await session.connect();
    session.on('error', () => undefined);
    await other.stop();
    expect(existsSync(other.dir)).toBe(false);
    expect(() => psqlSync(url, 'SELECT 1')).toThrow(/Connection refused|could not connect/);
    await session.end().catch(() => undefined);
  });
});
