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
    const tablesBefore = tables(before);
    before.close();
    const after = openDatabase(file, { migrations: MIGRATIONS.slice(0, index + 1) });
    expect(after.pragma('user_version', { simple: true })).toBe(version);
    expect(tables(after).length).toBeGreaterThan(tablesBefore.length);
    after.close();
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
