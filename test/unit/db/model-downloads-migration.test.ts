import { describe, expect, it } from 'vitest';
import { createModelDownloadsRepo } from '../../../main/db/repositories/model-downloads.js';
import { beforeMigration } from '../../support/migrations.js';

describe('migration 110 (model downloads)', () => {
  it('adds the downloads table over an existing database; the repository lists the unfinished ones to resume', () => {
    const { migrate } = beforeMigration(110);
    const db = migrate();
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
