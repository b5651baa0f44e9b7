import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { openDatabase, type Db, type OpenOptions } from '../../main/db/connection.js';
import { MIGRATIONS } from '../../main/db/migrations/index.js';
import { tempDir } from './core.js';

/**
 * A database in use before migration `version` shipped: `before` has run every earlier migration
 * (seed it as a user's database would be), and `migrate()` closes it and opens it again through
 * `version`, as the next start of the app would. Closed and removed when the test ends.
 */
export function beforeMigration(version: number): {
  before: Db;
  migrate: (options?: Pick<OpenOptions, 'onMigrationProgress'>) => Db;
  /** Closes what `migrate()` opened and opens the database again through every migration, as today's app would. */
  latest: () => Db;
} {
  const { dir, remove } = tempDir();
  const file = join(dir, 'parley.db');
  const index = MIGRATIONS.findIndex((m) => m.version === version);
  expect(index, `migration ${version} is in MIGRATIONS, after another`).toBeGreaterThan(0);
  const open: Db[] = [];
  onTestFinished(() => {
    for (const db of open) if (db.open) db.close();
    remove();
  });
  const before = openDatabase(file, { migrations: MIGRATIONS.slice(0, index) });
  open.push(before);
  return {
    before,
    migrate(options = {}) {
      before.close();
      const after = openDatabase(file, { ...options, migrations: MIGRATIONS.slice(0, index + 1) });
      open.push(after);
      return after;
    },
    latest() {
      for (const db of open) if (db.open) db.close();
      const now = openDatabase(file, { migrations: MIGRATIONS });
      open.push(now);
      return now;
    },
  };
}
