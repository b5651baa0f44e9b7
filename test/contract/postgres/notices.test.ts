/**
 * Issue 33: notices between instances through LISTEN/NOTIFY (main/db/postgres/notices.ts), on the
 * run's test PostgreSQL: heard from another session, and heard again after the listening
 * connection was cut (it connects again by itself, saying so).
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PostgresDb } from '../../../main/db/postgres/connection.js';
import { NOTICE_CHANNEL, PostgresNotices } from '../../../main/db/postgres/notices.js';
import { freshDatabaseUrl } from '../../support/postgres-db.js';

describe('notices between instances on PostgreSQL', () => {
  const url = freshDatabaseUrl();
  const db = new PostgresDb(url);
  const warnings: string[] = [];
  const notices = new PostgresNotices({
    url,
    notify: (channel, payload) => void db.query('SELECT pg_notify($1, $2)', [channel, payload]),
    log: { info: () => {}, warn: (line) => warnings.push(line) },
  });
  afterAll(async () => {
    await notices.close();
    db.close();
  });

  it('hears what another session publishes, by kind; ignores what is not a notice of ours', async () => {
    await notices.listening();
    const heard: string[] = [];
    const off = notices.on('answer.cancel', (id) => heard.push(id));
    db.query('SELECT pg_notify($1, $2)', [NOTICE_CHANNEL, 'not json']);
    db.query('SELECT pg_notify($1, $2)', [NOTICE_CHANNEL, JSON.stringify({ kind: 'answer.ended', id: 'msg_other' })]);
    notices.publish('answer.cancel', 'msg_1');
    await vi.waitFor(() => expect(heard).toEqual(['msg_1']));
    off();
  });

  it('connects again when its connection is cut, and hears notices after', async () => {
    const cut = db.query<{ n: number }>("SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = 'parley-notices' AND datname = current_database()");
    expect(cut.rows[0]?.n).toBe(1);
    await vi.waitFor(() => expect(warnings.join('\n')).toMatch(/dropped .*connecting again in 500 ms/));
    const heard: string[] = [];
    notices.on('answer.ended', (id) => heard.push(id));
    await notices.listening();
    notices.publish('answer.ended', 'msg_2');
    await vi.waitFor(() => expect(heard).toEqual(['msg_2']));
  });
});
