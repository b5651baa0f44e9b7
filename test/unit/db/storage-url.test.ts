import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config-parse.js';
import { databaseUrlFor, openStorage, redactedUrl, StorageUrlError } from '../../../main/db/storage.js';
import { tempDir } from '../../support/core.js';

/** Which database served mode runs on (issue 33): flag, then environment, then parley.toml, else SQLite. */
describe('choosing the storage', () => {
  const dirs: Array<{ remove: () => void }> = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));
  const dataDir = (toml?: string): string => {
    const made = tempDir('parley-storage-url-');
    dirs.push(made);
    if (toml !== undefined) writeFileSync(join(made.dir, 'parley.toml'), toml);
    return made.dir;
  };
  const FILE_URL = 'postgres://file@db/parley';
  const withFile = `[storage]\ndatabase_url = "${FILE_URL}"\n`;

  it('takes the flag over the environment over parley.toml, and nothing means SQLite', () => {
    const dir = dataDir(withFile);
    expect(databaseUrlFor(dir, 'postgres://flag@db/parley', { PARLEY_DATABASE_URL: 'postgres://env@db/parley' })).toBe('postgres://flag@db/parley');
    expect(databaseUrlFor(dir, undefined, { PARLEY_DATABASE_URL: 'postgres://env@db/parley' })).toBe('postgres://env@db/parley');
    expect(databaseUrlFor(dir, undefined, {})).toBe(FILE_URL);
    expect(databaseUrlFor(dataDir(), undefined, {})).toBeUndefined();
    expect(databaseUrlFor(dataDir('[server]\nport = 4000\n'), undefined, {})).toBeUndefined();
  });

  it('a parley.toml naming a database is still a valid configuration', () => {
    const parsed = parseConfig(withFile);
    expect(parsed.ok && parsed.config.storage.database_url).toBe(FILE_URL);
  });

  it('a database_url of the wrong type stops the start instead of running on SQLite', () => {
    for (const toml of ['[storage]\ndatabase_url = 5432\n', '[storage]\ndatabase_url = ""\n', `storage = "${FILE_URL}"\n`]) {
      expect(() => databaseUrlFor(dataDir(toml), undefined, {}), toml).toThrow(StorageUrlError);
    }
    expect(() => databaseUrlFor(dataDir('[storage]\ndatabase_url = 5432\n'), undefined, {})).toThrow(/database_url in .*parley\.toml must be a postgres:\/\/ URL/);
  });

  it('a malformed parley.toml that names a database stops the start, saying where; one that does not is left to the configuration', () => {
    expect(() => databaseUrlFor(dataDir(`[storage]\ndatabase_url = "${FILE_URL}\n`), undefined, {})).toThrow(/names a database_url but is not valid TOML \(line 2, column \d+\)/);
    expect(databaseUrlFor(dataDir('[server\nport = 4000\n'), undefined, {})).toBeUndefined();
  });

  it('refuses a URL that is not PostgreSQL, or not a URL, without printing its password', () => {
    const open = (databaseUrl: string) => () => openStorage({ dataDir: dataDir(), databaseUrl });
    expect(open('mysql://user:secret@db/parley')).toThrow(/must start with postgres:\/\/.*Got mysql:\/\//);
    expect(open('sqlite:///tmp/parley.db')).toThrow(StorageUrlError);
    let message = '';
    try {
      open('postgres://user:se/cr@et@db:port/parley')();
    } catch (error) {
      expect(error).toBeInstanceOf(StorageUrlError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/is not a URL/);
    expect(message).not.toMatch(/se\/cr|cr@et|et@db/);
  });

  it('redacts a password holding @ or / entirely', () => {
    expect(redactedUrl('postgres://user:p@ss@db:5432/parley')).toBe('postgres://user:***@db:5432/parley');
    expect(redactedUrl('postgres://user:pa%2Fss@db/parley')).toBe('postgres://user:***@db/parley');
    expect(redactedUrl('postgres://db/parley')).toBe('postgres://db/parley');
  });

  it('an unreachable server stops the start with one line that names it and never the password', () => {
    let message = '';
    try {
      openStorage({ dataDir: dataDir(), databaseUrl: 'postgres://user:s3cr%40t@127.0.0.1:1/x' });
    } catch (error) {
      expect(error).toBeInstanceOf(StorageUrlError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/^PostgreSQL at postgres:\/\/user:\*\*\*@127\.0\.0\.1:1\/x could not be reached: .*ECONNREFUSED/);
    expect(message).not.toContain('\n');
    expect(message).not.toMatch(/s3cr/);
  });
});
