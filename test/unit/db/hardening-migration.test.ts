import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';

describe('migration 150 (keyed credential hashes, models per organization, thoughts per call)', () => {
  it('marks existing credentials sha256, shortens prefixes, gives models an organization, and links earlier calls to their datasets', () => {
    const { before, migrate } = beforeMigration(150);
    before.exec(`
      INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'One', '2024-01-01'), ('org_2', 'Two', '2024-02-01');
      INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ('wsp_1', 'org_1', 'W', 'now'), ('wsp_2', 'org_2', 'W', 'now');
      INSERT INTO users (id, email, name, role, organization_id, workspace_id, created_at, updated_at) VALUES
        ('usr_1', 'a@b.c', 'A', 'member', 'org_1', 'wsp_1', 'now', 'now'), ('usr_2', 'b@b.c', 'B', 'admin', 'org_2', 'wsp_2', 'now', 'now');
      INSERT INTO api_keys (id, user_id, name, prefix, secret_hash, created_at) VALUES ('key_1', 'usr_1', 'k', 'pk_ABCDEFG', 'h1', 'now');
      INSERT INTO models (id, name, kind, provider, model, capabilities, created_by, created_at) VALUES
        ('mdl_a', 'A', 'third_party', 'openai_compatible', 'm', '{}', 'usr_2', 'now'),
        ('mdl_b', 'B', 'third_party', 'openai_compatible', 'm', '{}', NULL, 'now');
      INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ('ds_1', 'org_1', 'D', 'now', 'now');
      INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES ('thr_1', 'usr_1', 'wsp_1', 't', 'now', 'now');
      INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES ('msg_1', 'thr_1', 'assistant', 'x', 'complete', 'now', 'now');
      INSERT INTO thoughts (id, message_id, dataset_id, step, kind, content, created_at) VALUES
        ('th_1', 'msg_1', 'ds_1', 1, 'tool_call', 'search', 'now'), ('th_2', 'msg_1', NULL, 2, 'answer', 'answer', 'now');
    `);

    const after = migrate();
    expect(after.pragma('user_version', { simple: true })).toBe(150);
    expect(after.prepare('SELECT prefix, hash_kind FROM api_keys').get()).toEqual({ prefix: 'pk_ABCD', hash_kind: 'sha256' });
    expect(after.prepare('SELECT id, organization_id FROM models ORDER BY id').all()).toEqual([
      { id: 'mdl_a', organization_id: 'org_2' },
      { id: 'mdl_b', organization_id: 'org_1' },
    ]);
    expect(after.prepare('SELECT message_id, dataset_id FROM agent_call_datasets').all()).toEqual([{ message_id: 'msg_1', dataset_id: 'ds_1' }]);
    // Deleting the dataset takes every thought of the call, the answer step that named none included.
    after.prepare("DELETE FROM datasets WHERE id = 'ds_1'").run();
    expect(after.prepare('SELECT count(*) AS n FROM thoughts').get()).toEqual({ n: 0 });
    after.close();
  });
});
