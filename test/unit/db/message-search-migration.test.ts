import { describe, expect, it } from 'vitest';
import { beforeMigration } from '../../support/migrations.js';
import { messageMatch } from '../../../main/db/repositories/message-search.js';
import { readableText } from '../../../main/core/conversation/threads/search-match.js';

describe('migration 240 (keyword index over message text)', () => {
  it('indexes the messages already written (but an answer still streaming), in every script, reporting progress; later writes keep it current', () => {
    const { before, migrate } = beforeMigration(240);
    before.exec(`
      INSERT INTO organizations (id, name, created_at) VALUES ('org_1', 'Org', 'now');
      INSERT INTO workspaces (id, organization_id, name, created_at) VALUES ('wsp_1', 'org_1', 'W', 'now');
      INSERT INTO users (id, email, name, role, organization_id, workspace_id, created_at, updated_at) VALUES ('usr_1', 'a@b.c', 'A', 'member', 'org_1', 'wsp_1', 'now', 'now');
      INSERT INTO threads (id, user_id, workspace_id, title, created_at, updated_at) VALUES ('thr_1', 'usr_1', 'wsp_1', 'Old chat', 'now', 'now');
    `);
    const message = before.prepare(`INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES (?, 'thr_1', ?, ?, ?, 'now', 'now')`);
    message.run('msg_q', 'user', 'How large is the equipment allowance?', 'complete');
    message.run('msg_a', 'assistant', '远程员工的设备补贴每年发放一次。', 'complete');
    message.run('msg_cut', 'assistant', 'An interrupted zebra', 'interrupted');
    message.run('msg_live', 'assistant', 'Still streaming walrus', 'streaming');

    const steps: Array<{ done: number; total: number }> = [];
    const db = migrate({ onMigrationProgress: (m, step) => m.version === 240 && steps.push(step) });
    const found = (typed: string) =>
      (db.prepare('SELECT m.id FROM messages_fts f JOIN messages m ON m.seq = f.rowid WHERE messages_fts MATCH ? ORDER BY m.seq').all(messageMatch(typed)) as Array<{ id: string }>).map((r) => r.id);
    expect(found('allowance')).toEqual(['msg_q']);
    expect(found('equip')).toEqual(['msg_q']);
    expect(found('设备补贴')).toEqual(['msg_a']);
    expect(found('zebra')).toEqual(['msg_cut']);
    expect(found('walrus')).toEqual([]);
    expect(steps.at(-1)).toEqual({ done: 4, total: 4 });

    // The streaming answer is indexed when it ends, leaves the index when resumed, and with its thread.
    db.prepare(`UPDATE messages SET content = content || ' 会議室', status = 'complete' WHERE id = 'msg_live'`).run();
    expect(found('walrus')).toEqual(['msg_live']);
    expect(found('会議')).toEqual(['msg_live']);
    db.prepare(`UPDATE messages SET status = 'streaming' WHERE id = 'msg_live'`).run();
    expect(found('walrus')).toEqual([]);
    db.prepare(`INSERT INTO messages (id, thread_id, role, content, status, created_at, updated_at) VALUES ('msg_new', 'thr_1', 'user', 'A walrus question', 'complete', 'now', 'now')`).run();
    expect(found('walrus')).toEqual(['msg_new']);
    db.prepare(`DELETE FROM threads WHERE id = 'thr_1'`).run();
    expect(found('allowance')).toEqual([]);
    expect(found('walrus')).toEqual([]);
  });
});

describe('what the user types, as a match', () => {
  it('keeps only words, quoted, the last one a prefix, and words written together as one phrase', () => {
    expect(messageMatch('equipment allow')).toBe('"equipment" "allow"*');
    expect(messageMatch('"NEAR(a b)" -c* text:d')).toBe('"NEAR" "a" "b" "c" "text" "d"*');
    expect(messageMatch('设备补贴 2024')).toBe('"设备 补贴" "2024"*');
    expect(messageMatch(' "*)( - ')).toBeNull();
  });
});

describe('the snippet of a message found', () => {
  it('reads Markdown as text: marks, fences, tags and URLs go, every word stays', () => {
    expect(readableText('Use **const**:\n\n```ts\nconst total = items.length;\n```\n\n<img src=x onerror="x()">\n## See [the docs](https://x.test/a)')).toBe(
      'Use const: const total = items.length; See the docs',
    );
  });
});
