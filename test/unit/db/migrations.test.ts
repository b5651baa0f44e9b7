import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseFromFutureError, openDatabase } from '../../../main/db/connection.js';
import { LATEST_VERSION, MIGRATIONS } from '../../../main/db/migrations/index.js';
import { tempDir } from '../../support/core.js';

const dirs: Array<() => void> = [];
const fresh = () => {
  const t = tempDir();
  dirs.push(t.remove);
  return join(t.dir, 'parley.db');
};
afterEach(() => dirs.splice(0).forEach((remove) => remove()));

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
/** Every table's and index's definition: what a migration changes, columns included. */
const schema = (db: Database.Database) =>
  (db.prepare('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name').all() as { sql: string }[]).map((r) => r.sql).join('\n');

/** Migrations that rewrite stored rows and leave the schema as it was. */
const ROWS_ONLY = new Set([210]);

describe('migrations', () => {
  it('are numbered in strictly increasing tens', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions.every((v, i) => v % 10 === 0 && (i === 0 || v > (versions[i - 1] ?? 0)))).toBe(true);
    expect(LATEST_VERSION).toBe(versions.at(-1));
  });

  it('bring a new database to the latest version with WAL and foreign keys on', () => {
    const db = openDatabase(fresh());
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(expect.arrayContaining(['users', 'organizations', 'workspaces', 'api_keys', 'user_tokens', 'access_tokens', 'config_versions']));
    db.close();
  });

  // One test per migration: each applies on top of the ones before it and adds what it says.
  it.each(MIGRATIONS.map((m, i) => [m.version, m.name, i] as const))('migration %i (%s) applies on its predecessors', (version, _name, index) => {
    const file = fresh();
    const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, index) });
    const schemaBefore = schema(before);
    before.close();
    const after = openDatabase(file, { migrations: MIGRATIONS.slice(0, index + 1) });
    expect(after.pragma('user_version', { simple: true })).toBe(version);
    // A new table, index or column: the schema is not what it was (a migration that only rewrites
    // rows has its own test of what it rewrites).
    if (!ROWS_ONLY.has(version)) expect(schema(after)).not.toBe(schemaBefore);
    after.close();
  });

  it('120: the messages of an existing thread become one straight branch, each following the one before', () => {
    const file = fresh();
    const index = MIGRATIONS.findIndex((m) => m.version === 120);
    const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, index) });
    const t = '2024-05-05T00:00:00.000Z';
    before.exec(`
      INSERT INTO organizations VALUES ('org_1', 'Org', '${t}');
      INSERT INTO workspaces VALUES ('wsp_1', 'org_1', 'Home', '${t}');
      INSERT INTO users (id, organization_id, workspace_id, email, name, role, created_at, updated_at) VALUES ('usr_1', 'org_1', 'wsp_1', 'a@b.c', 'A', 'member', '${t}', '${t}');
      INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES ('thr_1', 'usr_1', 'wsp_1', 'T', '${t}', '${t}'), ('thr_2', 'usr_1', 'wsp_1', 'U', '${t}', '${t}');
      INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES
        ('msg_1', 'thr_1', 'user', 'q', 'complete', '${t}', '${t}'),
        ('msg_x', 'thr_2', 'user', 'other', 'complete', '${t}', '${t}'),
        ('msg_2', 'thr_1', 'assistant', 'a', 'complete', '${t}', '${t}'),
        ('msg_3', 'thr_1', 'user', 'q2', 'complete', '${t}', '${t}');
    `);
    before.close();
    const after = openDatabase(file);
    const parents = after.prepare('SELECT id, parent_id FROM messages ORDER BY seq').all();
    expect(parents).toEqual([
      { id: 'msg_1', parent_id: null },
      { id: 'msg_x', parent_id: null },
      { id: 'msg_2', parent_id: 'msg_1' },
      { id: 'msg_3', parent_id: 'msg_2' },
    ]);
    after.close();
  });

  it('080: thoughts belong to their message and to the dataset they concerned, and go with either', () => {
    const db = openDatabase(fresh());
    const t = '2024-05-05T00:00:00.000Z';
    db.exec(`
      INSERT INTO organizations VALUES ('org_1', 'Org', '${t}');
      INSERT INTO workspaces VALUES ('wsp_1', 'org_1', 'Home', '${t}');
      INSERT INTO users (id, organization_id, workspace_id, email, name, role, created_at, updated_at) VALUES ('usr_1', 'org_1', 'wsp_1', 'a@b.c', 'A', 'member', '${t}', '${t}');
      INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ('ds_1', 'org_1', 'One', '${t}', '${t}');
      INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES ('thr_1', 'usr_1', 'wsp_1', 'T', '${t}', '${t}');
      INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES ('msg_1', 'thr_1', 'assistant', '', 'complete', '${t}', '${t}');
      INSERT INTO thoughts VALUES ('th_1', 'msg_1', NULL, 1, 'plan', 'Search', '${t}');
      INSERT INTO thoughts VALUES ('th_2', 'msg_1', 'ds_1', 2, 'observation', 'Found', '${t}');
    `);
    const ids = () => (db.prepare('SELECT id FROM thoughts ORDER BY step').all() as { id: string }[]).map((r) => r.id);
    expect(() => db.prepare("INSERT INTO thoughts VALUES ('th_3', 'msg_1', NULL, 3, 'musing', 'x', ?)").run(t)).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO thoughts VALUES ('th_3', 'msg_1', 'ds_gone', 3, 'plan', 'x', ?)").run(t)).toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM datasets WHERE id = 'ds_1'").run();
    expect(ids()).toEqual(['th_1']);
    db.prepare("DELETE FROM threads WHERE id = 'thr_1'").run();
    expect(ids()).toEqual([]);
    db.close();
  });

  it('apply all pending migrations in one transaction: a failing one leaves the database untouched', () => {
    const file = fresh();
    const broken = [...MIGRATIONS, { version: LATEST_VERSION + 10, name: 'broken', sql: 'CREATE TABLE extra (id TEXT); SELECT * FROM no_such_table;' }];
    expect(() => openDatabase(file, { migrations: broken })).toThrow(/no_such_table/);
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(tables(db)).toEqual([]);
    db.close();
  });

  it('refuse a database written by a newer version, without changing it', () => {
    const file = fresh();
    openDatabase(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_VERSION + 10}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseFromFutureError);
    expect(() => openDatabase(file)).toThrow(/newer version of Parley/);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(LATEST_VERSION + 10);
    check.close();
  });
});
