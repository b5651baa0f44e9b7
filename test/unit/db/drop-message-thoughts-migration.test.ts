import { describe, expect, it } from 'vitest';
import type { Db } from '../../../main/db/connection.js';
import { createMessagesRepo } from '../../../main/db/repositories/messages.js';
import { createUsersRepo } from '../../../main/db/repositories/users.js';
import { beforeMigration } from '../../support/migrations.js';

/**
 * A thread with one question and an answer being written. The thread and messages are written in
 * SQL, as the schema before 160 holds them: today's repositories prepare statements for columns
 * added after 160 (230's timings, 250's title source), which a database at 150 does not have.
 */
function seedConversation(db: Db): void {
  const users = createUsersRepo(db);
  users.createOrganization({ id: 'org_a', name: 'Org', workspace_id: 'wsp_a', workspace_name: 'Space', now: 't0' });
  users.insert({ id: 'usr_a', organization_id: 'org_a', workspace_id: 'wsp_a', email: 'a@example.com', name: 'A', role: 'member', now: 't0' });
  // In SQL too: today's threads repository knows 250's `title_source`.
  db.prepare("INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES ('thr_a', 'usr_a', 'wsp_a', 'T', 't0', 't0')").run();
  const insert = db.prepare(
    "INSERT INTO messages (id, thread_id, parent_id, role, content, status, thoughts, created_at, updated_at) VALUES (?, 'thr_a', ?, ?, ?, ?, '[]', 't0', 't0')",
  );
  insert.run('msg_q', null, 'user', 'When is the lamp lit?', 'complete');
  insert.run('msg_a', 'msg_q', 'assistant', '', 'streaming');
}

describe('migration 160 (drops messages.thoughts)', () => {
  it('drops the column from an existing database, keeps every message, and answers still finish', () => {
    const { before, migrate, latest } = beforeMigration(160);
    seedConversation(before);
    expect((before.pragma('table_info(messages)') as Array<{ name: string }>).map((c) => c.name)).toContain('thoughts');

    const at160 = migrate();
    expect(at160.pragma('user_version', { simple: true })).toBe(160);
    expect((at160.pragma('table_info(messages)') as Array<{ name: string }>).map((c) => c.name)).not.toContain('thoughts');
    // The messages are read and an answer finished by today's repository, on today's schema.
    const db = latest();
    try {
      const messages = createMessagesRepo(db);
      expect(messages.history('thr_a').map((m) => [m.id, m.content])).toEqual([
        ['msg_q', 'When is the lamp lit?'],
        ['msg_a', ''],
      ]);
      const finished = messages.finish('msg_a', {
        content: 'At dusk.',
        status: 'complete',
        citations: [],
        input_tokens: 5,
        output_tokens: 2,
        error_code: null,
        error_detail: null,
        now: 't1',
      });
      expect(finished).toBe(true);
      expect(messages.get('msg_a')).toMatchObject({ content: 'At dusk.', status: 'complete', output_tokens: 2 });
    } finally {
      db.close();
    }
  });
});
