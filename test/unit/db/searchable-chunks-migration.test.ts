import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';

describe('migration 190 (chunk runs of artifacts that are not ready)', () => {
  it('marks the chunks of files left processing or failed in an existing database, and lets them go once ready', () => {
    const { before, migrate } = beforeMigration(190);
    const now = 't0';
    before.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run('org_m', 'M', now);
    before.prepare('INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run('ds_m', 'org_m', 'M', now, now);
    before.prepare('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES (?, ?, ?)').run('kb_m', 'ds_m', now);
    const artifact = before.prepare(
      'INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 0, ?, ?, ?)',
    );
    artifact.run('art_ready', 'kb_m', 'ready.txt', 'ready.txt', 'ready', now, now);
    artifact.run('art_busy', 'kb_m', 'busy.txt', 'busy.txt', 'processing', now, now);
    const chunk = before.prepare('INSERT INTO chunks (id, artifact_id, kb_id, ord, text) VALUES (?, ?, ?, ?, ?)');
    // Interleaved batches: busy holds 3–4 and 7, ready holds the rest.
    for (const [id, art] of [[1, 'art_ready'], [2, 'art_ready'], [3, 'art_busy'], [4, 'art_busy'], [5, 'art_ready'], [7, 'art_busy']] as const) chunk.run(id, art, 'kb_m', id, `text ${id}`);

    const db = migrate();
    expect(db.prepare('SELECT lo, hi, artifact_id FROM chunk_unready ORDER BY lo').all()).toEqual([
      { lo: 3, hi: 4, artifact_id: 'art_busy' },
      { lo: 7, hi: 7, artifact_id: 'art_busy' },
    ]);
    db.prepare("UPDATE artifacts SET status = 'ready' WHERE id = 'art_busy'").run();
    expect(db.prepare('SELECT count(*) AS n FROM chunk_unready').get()).toEqual({ n: 0 });
    db.prepare("UPDATE artifacts SET status = 'failed' WHERE id = 'art_ready'").run();
    expect(db.prepare('SELECT lo, hi FROM chunk_unready ORDER BY lo').all()).toEqual([
      { lo: 1, hi: 2 },
      { lo: 5, hi: 5 },
    ]);
  });
});
