import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';
import { titleFrom } from '../../../main/core/conversation/chat/send.js';

describe('migration 250 (who wrote each thread title)', () => {
  it('marks titles Parley took from the first message (whole or cut) or "New chat" as its own, every other as the user’s', () => {
    const { before, migrate } = beforeMigration(250);
    before.exec(`
      INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'Org', 'now');
      INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ('wsp_1', 'org_1', 'W', 'now');
      INSERT INTO users (id, email, name, role, organization_id, workspace_id, created_at, updated_at) VALUES ('usr_1', 'a@b.c', 'A', 'member', 'org_1', 'wsp_1', 'now', 'now');
    `);
    const long = 'Please tell me everything the staff handbook says about the equipment allowance for remote staff';
    const threads: Array<[string, string, string | null]> = [
      ['thr_first', 'Count slowly for me please', '  Count slowly for me please  '],
      ['thr_lines', 'Compare these', 'Compare these\r\nfirst: a\nsecond: b'],
      ['thr_cut', titleFrom(long), long],
      ['thr_new', 'New chat', null],
      ['thr_renamed', 'Counting practice', 'Count slowly for me please'],
      ['thr_named_empty', 'My notes', null],
    ];
    const thread = before.prepare(`INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES (?, 'usr_1', 'wsp_1', ?, 'now', 'now')`);
    const message = before.prepare(`INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'complete', 'now', 'now')`);
    for (const [id, title, first] of threads) {
      thread.run(id, title);
      if (first === null) continue;
      message.run(`msg_${id}_q`, id, 'user', first);
      message.run(`msg_${id}_a`, id, 'assistant', 'An answer');
      message.run(`msg_${id}_q2`, id, 'user', title === 'Counting practice' ? 'Counting practice' : 'A later question');
    }

    const db = migrate();
    const sources = Object.fromEntries((db.prepare('SELECT id, title_source FROM threads').all() as Array<{ id: string; title_source: string }>).map((r) => [r.id, r.title_source]));
    expect(sources).toEqual({
      thr_first: 'first_message',
      thr_lines: 'first_message',
      thr_cut: 'first_message',
      thr_new: 'first_message',
      thr_renamed: 'user',
      thr_named_empty: 'user',
    });
    expect(() => db.prepare(`UPDATE threads SET title_source = 'model' WHERE id = 'thr_first'`).run()).toThrow(/CHECK/);
  });
});
