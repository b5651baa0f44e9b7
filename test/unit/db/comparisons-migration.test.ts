import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';

describe('migration 070 (model comparisons and votes)', () => {
  it('adds the comparison tables and lets usage_events record comparisons, keeping the rows already there', () => {
    const { before, migrate } = beforeMigration(70);
    before.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'Org', 'now')").run();
    before.prepare("INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ('wsp_1', 'org_1', 'W', 'now')").run();
    before
      .prepare("INSERT INTO users (id, email, name, role, organization_id, workspace_id, created_at, updated_at) VALUES ('usr_1', 'a@b.c', 'A', 'member', 'org_1', 'wsp_1', 'now', 'now')")
      .run();
    before
      .prepare("INSERT INTO usage_events (user_id, model_id, source, message_id, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'chat', 'msg_1', 3, 4, 'now')")
      .run();
    expect(() =>
      before.prepare("INSERT INTO usage_events (user_id, model_id, source, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'comparison', 1, 1, 'now')").run(),
    ).toThrow(/CHECK/);

    const after = migrate();
    expect(after.pragma('user_version', { simple: true })).toBe(70);
    const tables = (after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toEqual(expect.arrayContaining(['comparisons', 'comparison_responses', 'comparison_votes', 'usage_events']));
    expect(tables).not.toContain('usage_events_070');
    expect(after.prepare('SELECT model_id, source, message_id, input_tokens, output_tokens FROM usage_events').all()).toEqual([
      { model_id: 'mdl_x', source: 'chat', message_id: 'msg_1', input_tokens: 3, output_tokens: 4 },
    ]);
    after
      .prepare("INSERT INTO usage_events (user_id, model_id, source, message_id, input_tokens, output_tokens, created_at) VALUES ('usr_1', 'mdl_x', 'comparison', 'rsp_1', 1, 1, 'now')")
      .run();

    after
      .prepare("INSERT INTO comparisons (id, user_id, organization_id, prompt, blind, created_at, updated_at) VALUES ('cmp_1', 'usr_1', 'org_1', 'p', 0, 'now', 'now')")
      .run();
    after
      .prepare(
        "INSERT INTO comparison_responses (id, comparison_id, position, model_id, model_name, status, created_at, updated_at) VALUES ('rsp_1', 'cmp_1', 0, 'mdl_x', 'X', 'complete', 'now', 'now')",
      )
      .run();
    const vote = after.prepare(
      "INSERT INTO comparison_votes (id, comparison_id, user_id, outcome, winner_response_id, created_at) VALUES (?, 'cmp_1', 'usr_1', ?, ?, 'now')",
    );
    // A winner names an answer; a tie does not.
    expect(() => vote.run('vot_0', 'winner', null)).toThrow(/CHECK/);
    expect(() => vote.run('vot_0', 'tie', 'rsp_1')).toThrow(/CHECK/);
    vote.run('vot_1', 'winner', 'rsp_1');
    // One vote per comparison and user.
    expect(() => vote.run('vot_2', 'tie', null)).toThrow(/UNIQUE/);
    after.close();
  });
});
