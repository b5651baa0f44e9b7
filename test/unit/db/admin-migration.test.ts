import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';

describe('migration 090 (workflows, upload authorship, metrics indexes)', () => {
  it('credits earlier files to the user of their upload, adds workflows whose datasets follow dataset deletion, and indexes the metrics scans', () => {
    const { before, migrate } = beforeMigration(90);
    before.exec(`
      INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'Org', 'now');
      INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ('wsp_1', 'org_1', 'W', 'now');
      INSERT INTO users (id, email, name, role, organization_id, workspace_id, created_at, updated_at) VALUES ('usr_1', 'a@b.c', 'A', 'member', 'org_1', 'wsp_1', 'now', 'now');
      INSERT INTO datasets (id, organization_id, name, created_at, updated_at) VALUES ('ds_1', 'org_1', 'D', 'now', 'now');
      INSERT INTO knowledge_bases (id, dataset_id, created_at) VALUES ('kb_1', 'ds_1', 'now');
      INSERT INTO uploads (id, kb_id, user_id, status, expires_at, created_at) VALUES ('upl_1', 'kb_1', 'usr_1', 'open', 'later', 'now');
      INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, upload_id, status, created_at, updated_at) VALUES ('art_1', 'kb_1', 'a', 'a', 1, 1, 'upl_1', 'pending', 'now', 'now');
      INSERT INTO artifacts (id, kb_id, key, filename, size, part_size, upload_id, status, created_at, updated_at) VALUES ('art_2', 'kb_1', 'b', 'b', 1, 1, NULL, 'ready', 'now', 'now');
      INSERT INTO usage_events (user_id, model_id, source, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'chat', 3, 4, '2024-05-01T10:00:00.000Z');
      INSERT INTO usage_events (user_id, model_id, source, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'chat', 5, 6, '2024-05-01T23:00:00.000Z');
    `);

    const after = migrate();
    expect(after.pragma('user_version', { simple: true })).toBe(90);
    expect(after.prepare('SELECT id, user_id FROM artifacts ORDER BY id').all()).toEqual([
      { id: 'art_1', user_id: 'usr_1' },
      { id: 'art_2', user_id: null },
    ]);
    // The daily rollups start from the events already recorded, then follow every new one.
    after.prepare("INSERT INTO usage_events (user_id, model_id, source, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'openai', 1, 1, '2024-05-01T23:30:00.000Z')").run();
    after.prepare("INSERT INTO usage_events (user_id, model_id, source, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_y', 'chat', 2, 2, '2024-05-02T00:00:00.000Z')").run();
    expect(after.prepare('SELECT user_id, day, calls, input_tokens, output_tokens FROM usage_user_daily ORDER BY day').all()).toEqual([
      { user_id: 'usr_1', day: '2024-05-01', calls: 3, input_tokens: 9, output_tokens: 11 },
      { user_id: 'usr_1', day: '2024-05-02', calls: 1, input_tokens: 2, output_tokens: 2 },
    ]);
    expect(after.prepare('SELECT organization_id, day, model_id, calls, input_tokens, output_tokens FROM usage_model_daily ORDER BY day').all()).toEqual([
      { organization_id: 'org_1', day: '2024-05-01', model_id: 'mdl_x', calls: 3, input_tokens: 9, output_tokens: 11 },
      { organization_id: 'org_1', day: '2024-05-02', model_id: 'mdl_y', calls: 1, input_tokens: 2, output_tokens: 2 },
    ]);
    after.exec(`
      INSERT INTO workflows (id, organization_id, name, system_prompt, created_at, updated_at) VALUES ('wf_1', 'org_1', 'W', 'p', 'now', 'now');
      INSERT INTO workflow_datasets (workflow_id, dataset_id, position) VALUES ('wf_1', 'ds_1', 0);
    `);
    expect(() => after.prepare("INSERT INTO workflows (id, organization_id, name, system_prompt, created_at, updated_at) VALUES ('wf_2', 'org_1', 'W', 'p', 'now', 'now')").run()).toThrow(/UNIQUE/);
    after.prepare("DELETE FROM datasets WHERE id = 'ds_1'").run();
    expect(after.prepare('SELECT COUNT(*) AS n FROM workflow_datasets').get()).toEqual({ n: 0 });

    // The usage scan reads the covering index only, never the table.
    const plan = (after.prepare("EXPLAIN QUERY PLAN SELECT user_id, SUM(input_tokens) FROM usage_events WHERE created_at >= 'a' AND created_at < 'b' GROUP BY user_id").all() as { detail: string }[])
      .map((r) => r.detail)
      .join('\n');
    expect(plan).toMatch(/COVERING INDEX usage_events_time/);
    after.close();
  });
});
