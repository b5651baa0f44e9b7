import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../main/db/connection.js';
import { MIGRATIONS } from '../../../main/db/migrations/index.js';
import { createModelDownloadsRepo } from '../../../main/db/repositories/model-downloads.js';
import { tempDir } from '../../support/core.js';

const dirs: Array<() => void> = [];
afterEach(() => dirs.splice(0).forEach((remove) => remove()));

describe('migration 110 (model downloads)', () => {
  it('adds the downloads table over an existing database; the repository lists the unfinished ones to resume', () => {
    const t = tempDir();
    dirs.push(t.remove);
    const file = join(t.dir, 'parley.db');
    const index = MIGRATIONS.findIndex((m) => m.version === 110);
    expect(index).toBeGreaterThan(0);
    openDatabase(file, { migrations: MIGRATIONS.slice(0, index) }).close();
    const db = openDatabase(file, { migrations: MIGRATIONS.slice(0, index + 1) });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(110);
      const repo = createModelDownloadsRepo(db);
      repo.insert({ id: 'dl_a', url: 'https://x/a.gguf', file_name: 'a.gguf', sha256_expected: null, sha256_source: null, created_by: null, now: 't0' });
      repo.insert({ id: 'dl_b', url: 'https://x/b.gguf', file_name: 'b.gguf', sha256_expected: 'f'.repeat(64), sha256_source: 'given', created_by: null, now: 't0' });
      repo.update('dl_a', { status: 'complete', bytes_done: 10 }, 't1');
      expect(repo.active().map((r) => r.id)).toEqual(['dl_b']);
      expect(repo.list().map((r) => r.id)).toEqual(['dl_b', 'dl_a']);
      expect(repo.get('dl_a')).toMatchObject({ status: 'complete', bytes_done: 10, updated_at: 't1' });
      expect(() => db.prepare("UPDATE model_downloads SET status = 'paused' WHERE id = 'dl_a'").run()).toThrow(/CHECK/);
    } finally {
      db.close();
    }
  });
});
