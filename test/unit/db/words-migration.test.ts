import { describe, expect, it } from 'vitest';
import type { Db } from '../../../main/db/connection.js';
import { logMigrationProgress } from '../../../main/db/migration-progress.js';
import { MIGRATIONS, type MigrationStep } from '../../../main/db/migrations/index.js';
import { createChunksRepo } from '../../../main/search/chunks.js';
import { searchKeyword } from '../../../main/search/index.js';
import { beforeMigration } from '../../support/migrations.js';

const CHINESE = '员工每周可以远程办公两天，设备补贴是一千二百欧元。';
const JAPANESE = '2024年の会議室の予約は総務部が管理します。';

/** A user's database as migration 210 left it: one ready file in a dataset, its chunks indexed the old way by the triggers. */
function seed(before: Db, texts: readonly string[]): void {
  const now = 't0';
  before.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)').run('org_m', 'M', now);
  before.prepare('INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run('ds_m', 'org_m', 'M', now, now);
  before.prepare('INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES (?, ?, ?)').run('kb_m', 'ds_m', now);
  before.prepare('INSERT INTO chunk_kbs (slot, kb_id, next_seq) VALUES (1, ?, ?)').run('kb_m', texts.length);
  before
    .prepare("INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, status, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 0, 'ready', ?, ?)")
    .run('art_m', 'kb_m', 'policy.txt', 'policy.txt', now, now);
  const chunk = before.prepare('INSERT INTO chunks (id, artifact_id, kb_id, ord, text) VALUES (?, ?, ?, ?, ?)');
  texts.forEach((text, i) => chunk.run(2 ** 32 + i, 'art_m', 'kb_m', i, text));
}

const matching = (db: Db, word: string) => (db.prepare('SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ?').all(`"${word}"`) as Array<{ id: number }>).map((r) => r.id);
const found = (db: Db, question: string) => searchKeyword({ chunks: createChunksRepo(db) }, { kb_ids: ['kb_m'], text: question, limit: 5 }).map((h) => h.text);

describe('migration 220 (words of scripts written without spaces in the keyword index)', () => {
  it('re-indexes chunks indexed the old way, reporting its progress, so a word inside a Chinese or Japanese sentence is found', () => {
    const { before, migrate } = beforeMigration(220);
    const english = Array.from({ length: 1200 }, (_, i) => `An English passage about parking, number ${i}.`);
    seed(before, [...english.slice(0, 600), CHINESE, ...english.slice(600), JAPANESE]);
    // Indexed the old way: the sentence is one token, nothing inside it can be found.
    expect(matching(before, '设备')).toEqual([]);
    expect(matching(before, '会議')).toEqual([]);

    const steps: MigrationStep[] = [];
    const lines: string[] = [];
    // As the boot logs it (main/boot.ts).
    const log = logMigrationProgress((line) => lines.push(line));
    const db = migrate({
      onMigrationProgress: (migration, step) => {
        steps.push(step);
        log(migration, step);
      },
    });
    expect(found(db, '设备补贴是多少')[0]).toBe(CHINESE);
    expect(found(db, '远程办公')[0]).toBe(CHINESE);
    expect(found(db, '会議室')[0]).toBe(JAPANESE);
    expect(found(db, 'parking')).toHaveLength(5);
    // Batch by batch, every chunk read once.
    expect(steps.length).toBeGreaterThan(2);
    expect(steps.at(-1)).toEqual({ done: 1202, total: 1202 });
    expect(steps.every((s, i) => i === 0 || s.done > steps[i - 1]!.done)).toBe(true);
    expect(lines).toEqual([0, 500, 1000, 1202].map((done) => `Re-indexing words in other scripts: ${done.toLocaleString('en')} of 1,202 passages`));
    // Only the chunks holding such a script have words of their own; the rest are read as they were.
    expect(db.prepare('SELECT count(*) AS n FROM chunk_words').get()).toEqual({ n: 2 });

    // What the index was given is what it is told to take out: deleting the file leaves the index empty and sound.
    db.prepare("DELETE FROM artifacts WHERE id = 'art_m'").run();
    expect(db.prepare('SELECT count(*) AS n FROM chunks_vocab').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM chunk_words').get()).toEqual({ n: 0 });
    db.prepare("INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')").run();
  });

  it('migrates an English-only database without re-indexing anything', () => {
    const { before, migrate } = beforeMigration(220);
    seed(before, ['An English passage about parking.', 'Die Parkgebühren betragen fünf Euro.', 'Сотрудники получают компенсацию.']);
    const steps: MigrationStep[] = [];
    const db = migrate({ onMigrationProgress: (_, step) => steps.push(step) });
    expect(steps).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM chunk_words').get()).toEqual({ n: 0 });
    expect(found(db, 'Parkgebuhren')).toEqual(['Die Parkgebühren betragen fünf Euro.']);
  });
});

describe('the boot’s log of a long migration', () => {
  it('says where it is at the start, at each tenth and at the end, not at every batch', () => {
    const lines: string[] = [];
    const log = logMigrationProgress((line) => lines.push(line));
    const m220 = MIGRATIONS.find((m) => m.version === 220)!;
    for (let done = 0; done <= 1_000_000; done += 500) log(m220, { done, total: 1_000_000 });
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('Re-indexing words in other scripts: 0 of 1,000,000 passages');
    expect(lines.at(-1)).toBe('Re-indexing words in other scripts: 1,000,000 of 1,000,000 passages');
  });
});
