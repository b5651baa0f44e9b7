import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';

interface Row {
  id: string;
  url: string;
  status: string;
  error: string | null;
}

const insert = `INSERT INTO model_downloads (id, url, file_name, status, error, created_at, updated_at) VALUES (?, ?, 'm.gguf', ?, ?, 't0', 't0')`;

describe('migration 210 (credentials in stored download URLs)', () => {
  it('cuts the user name and password out of every stored URL and the errors that echoed them; an unfinished one is failed', () => {
    const { before, migrate } = beforeMigration(210);
    const seed = before.prepare(insert);
    seed.run('dl_done', 'https://alice:s3cret-pass@models.example/org/m.gguf?download=true', 'complete', null);
    seed.run('dl_failed', 'http://alice:s3cret-pass@10.0.0.5:8080/m.gguf', 'failed', 'The download failed: http://alice:s3cret-pass@10.0.0.5:8080/m.gguf answered 401 (alice:s3cret-pass).');
    seed.run('dl_user_only', 'https://token@models.example/m.gguf', 'cancelled', null);
    // The URL standard reads the authority up to its last @: all of "a@b:c" is userinfo.
    seed.run('dl_two_ats', 'https://a@b:c@models.example/m.gguf', 'failed', null);
    seed.run('dl_running', 'https://bob:hunter22@models.example/r.gguf', 'downloading', null);
    // An @ after the authority (in the path, query or fragment) is no credential.
    seed.run('dl_at_in_path', 'https://models.example/@org/m.gguf?by=me@example.com#x@y', 'complete', null);
    seed.run('dl_at_in_query', 'https://models.example?by=me@example.com', 'failed', 'The download failed: timeout');
    seed.run('dl_plain', 'https://models.example/p.gguf', 'queued', null);

    const db = migrate();
    const rows = new Map((db.prepare('SELECT id, url, status, error FROM model_downloads').all() as Row[]).map((r) => [r.id, r]));
    expect(rows.get('dl_done')).toMatchObject({ url: 'https://models.example/org/m.gguf?download=true', status: 'complete', error: null });
    expect(rows.get('dl_failed')).toMatchObject({ url: 'http://10.0.0.5:8080/m.gguf', status: 'failed', error: 'The download failed: http://10.0.0.5:8080/m.gguf answered 401 ().' });
    expect(rows.get('dl_user_only')).toMatchObject({ url: 'https://models.example/m.gguf', status: 'cancelled' });
    expect(rows.get('dl_two_ats')?.url).toBe('https://models.example/m.gguf');
    // Once cut, the runner could not tell it needed credentials: it is failed, not fetched without them.
    expect(rows.get('dl_running')).toMatchObject({ url: 'https://models.example/r.gguf', status: 'failed', error: expect.stringMatching(/user name or password.*not resumed/) });
    expect(rows.get('dl_at_in_path')).toMatchObject({ url: 'https://models.example/@org/m.gguf?by=me@example.com#x@y', status: 'complete' });
    expect(rows.get('dl_at_in_query')).toMatchObject({ url: 'https://models.example?by=me@example.com', error: 'The download failed: timeout' });
    expect(rows.get('dl_plain')).toMatchObject({ url: 'https://models.example/p.gguf', status: 'queued', error: null });

    const leaks = db.prepare(`SELECT count(*) AS n FROM model_downloads WHERE url LIKE '%s3cret%' OR url LIKE '%hunter22%' OR error LIKE '%s3cret%' OR url LIKE '%token@%'`).get() as { n: number };
    expect(leaks.n).toBe(0);
    // Every URL left still parses, and none carries credentials.
    for (const row of rows.values()) {
      const url = new URL(row.url);
      expect([url.username, url.password], row.id).toEqual(['', '']);
    }
  });
});
