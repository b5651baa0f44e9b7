import { describe, expect, it } from 'vitest';
import type { Db } from '../../../main/db/connection.js';
import { createMessagesRepo } from '../../../main/db/repositories/messages.js';
import { createThreadsRepo } from '../../../main/db/repositories/threads.js';
import { createUsersRepo } from '../../../main/db/repositories/users.js';
import { beforeMigration } from '../../support/migrations.js';

/** A thread with one question and one finished answer, written through the repositories. */
function seedConversation(db: Db): void {
  const users = createUsersRepo(db);
  users.createOrganization({ id: 'org_a', name: 'Org', workspace_id: 'wsp_a', workspace_name: 'Space', now: 't0' });
  users.insert({ id: 'usr_a', organization_id: 'org_a', workspace_id: 'wsp_a', email: 'a@example.com', name: 'A', role: 'member', now: 't0' });
  createThreadsRepo(db).insert({ id: 'thr_a', user_id: 'usr_a', workspace_id: 'wsp_a', title: 'T', suggestions_enabled: false, system_prompt: null, workflow_id: null, dataset_ids: [], now: 't0' });
  const messages = createMessagesRepo(db);
  messages.insert({ id: 'msg_q', thread_id: 'thr_a', parent_id: null, role: 'user', content: 'When is the lamp lit?', status: 'complete', model_id: null, routing: null, now: 't0' });
  messages.insert({ id: 'msg_a', thread_id: 'thr_a', parent_id: 'msg_q', role: 'assistant', content: '', status: 'streaming', model_id: null, routing: null, now: 't0' });
}

describe('migration 160 (drops messages.thoughts)', () => {
  it('drops the column from an existing database, keeps every message, and answers still finish', () => {
    const { before, migrate } = beforeMigration(160);
    seedConversation(before);
    expect((before.pragma('table_info(messages)') as Array<{ name: string }>).map((c) => c.name)).toContain('thoughts');

    const db = migrate();
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(160);
      expect((db.pragma('table_info(messages)') as Array<{ name: string }>).map((c) => c.name)).not.toContain('thoughts');
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
