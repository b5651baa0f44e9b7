/**
 * Issue 33: several Parley instances on one PostgreSQL database (the team server). Runs in the
 * contract-postgres project only (vitest.config.ts), on the run's test PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDb } from '../../../main/db/postgres/connection.js';
import { checksum, MigrationChecksumError, migratePostgres, POSTGRES_MIGRATIONS } from '../../../main/db/postgres/migrations/index.js';
import { tempDir } from '../../support/core.js';
import { freshDatabaseUrl } from '../../support/postgres-db.js';
import { randomApiKey, startServed, type Served } from '../../support/served.js';
import { collectChat, readSse } from '../../support/sse.js';
import { SLOW_TEXT, startUpstream, type Upstream } from '../../fixtures/upstream.js';

const MIGRATE = fileURLToPath(new URL('../../fixtures/migrate-postgres.ts', import.meta.url));

/** Migrates `url` in a process of its own, as an instance starting does; resolves with its exit code and output. */
function migrateInProcess(url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MIGRATE, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('migrations on PostgreSQL', () => {
  it('three instances starting together migrate once: each waits for the lock, then finds nothing to do', async () => {
    const url = freshDatabaseUrl();
    const runs = await Promise.all([migrateInProcess(url), migrateInProcess(url), migrateInProcess(url)]);
    for (const run of runs) expect(run, run.output).toMatchObject({ code: 0 });
    const db = new PostgresDb(url);
    try {
      const applied = db.query<{ version: number; checksum: string }>('SELECT version, checksum FROM parley_migrations ORDER BY version').rows;
      expect(applied).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, checksum: checksum(m) })));
      expect(db.query<{ n: number }>("SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'threads'").rows[0]?.n).toBe(1);
    } finally {
      db.close();
    }
  });

  it('refuses a database whose applied migration was changed since, leaving it as it was', () => {
    const url = freshDatabaseUrl();
    const db = new PostgresDb(url);
    try {
      migratePostgres(db);
      db.query("UPDATE parley_migrations SET checksum = 'edited' WHERE version = $1", [POSTGRES_MIGRATIONS[0]!.version]);
      const recorded = db.query('SELECT version, checksum FROM parley_migrations ORDER BY version').rows;
      expect(() => migratePostgres(db)).toThrow(MigrationChecksumError);
      expect(db.query('SELECT version, checksum FROM parley_migrations ORDER BY version').rows).toEqual(recorded);
      expect(recorded[0]).toEqual({ version: POSTGRES_MIGRATIONS[0]!.version, checksum: 'edited' });
    } finally {
      db.close();
    }
  });

  it('refuses a database a newer Parley migrated, naming both versions', () => {
    const db = new PostgresDb(freshDatabaseUrl());
    try {
      migratePostgres(db);
      db.query("INSERT INTO parley_migrations (version, name, checksum, applied_at) VALUES (9990, 'future', 'x', 'now')");
      expect(() => migratePostgres(db)).toThrow(/newer version of Parley \(schema 9990; this version knows up to \d+\)/);
    } finally {
      db.close();
    }
  });
});

describe('two instances on one database and one data directory', () => {
  const dir = tempDir('parley-instances-');
  const servers: Served[] = [];
  let upstream: Upstream | undefined;
  /** Models answering one word, then nothing for ten minutes: only a cancel ends them. */
  const held: string[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await upstream?.close();
    dir.remove();
  });

  it('start together on an empty database, seed one owner, and serve the same users and datasets', async () => {
    const env = { PARLEY_DATABASE_URL: freshDatabaseUrl() };
    const key = randomApiKey();
    const [a, b] = await Promise.all([startServed({ dataDir: dir.dir, adminApiKey: key, env }), startServed({ dataDir: dir.dir, adminApiKey: key, env })]);
    servers.push(a, b);
    expect(a.output()).toMatch(/^Storage: PostgreSQL \(instance inst_[0-9a-f]{12}\)$/m);
    const health = await Promise.all([a, b].map(async (s) => (await s.api('/health', { token: null })).json() as Promise<{ storage: string; instance: string }>));
    expect(health.map((h) => h.storage)).toEqual(['postgres', 'postgres']);
    expect(health[0]!.instance).not.toBe(health[1]!.instance);

    // One owner, whichever instance seeded the database: the key works on both.
    const users = (await (await b.api('/admin/users')).json()) as { data: Array<{ role: string }> };
    expect(users.data.filter((u) => u.role === 'super_admin')).toHaveLength(1);
    const created = (await (await a.api('/datasets', { body: { name: 'Shared handbook' } })).json()) as { id: string };
    const listed = (await (await b.api('/datasets')).json()) as { data: Array<{ id: string; name: string }> };
    expect(listed.data).toContainEqual(expect.objectContaining({ id: created.id, name: 'Shared handbook' }));
    // A key made on one instance signs in on the other.
    const made = (await (await b.api('/api-keys', { body: { name: 'laptop' } })).json()) as { key: string };
    expect((await a.api('/me', { token: made.key })).status).toBe(200);
  });

  it('follows an answer the other instance is writing, from what is stored so far to its end', async () => {
    const [a, b] = servers as [Served, Served];
    upstream = await startUpstream();
    // Ten words, 250 ms apart: the other instance attaches while it is being written.
    const model = (await (await a.api('/models', { body: { name: 'Slow', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:250' } })).json()) as { id: string };
    const writing = await a.api('/chat', { body: { message: 'count to ten', model_endpoint_override: model.id, stream: true } });
    const events = readSse(writing)[Symbol.asyncIterator]();
    let messageId = '';
    for (let e = await events.next(); !e.done; e = await events.next()) {
      if (e.value.event === 'message.created') messageId = (JSON.parse(e.value.data) as { message_id: string }).message_id;
      if (e.value.event === 'delta') break;
    }
    const followed = await collectChat(await b.api(`/chat/${messageId}/stream`));
    const names = followed.map((e) => e.event);
    expect(names[0]).toBe('message.created');
    expect(names.at(-1)).toBe('message.completed');
    const text = followed.filter((e) => e.event === 'delta').map((e) => e.data.content as string).join('');
    expect(text).toBe(SLOW_TEXT);
    expect((followed.at(-1)?.data.message as { content: string; status: string })).toMatchObject({ content: text, status: 'complete' });
    for (let e = await events.next(); !e.done; e = await events.next());
  });

  it('cancels, through the other instance, an answer this one writes: it ends cancelled with its text so far, on both', async () => {
    const [a, b] = servers as [Served, Served];
    // One word, then nothing for ten minutes: only the cancel ends it.
    const model = (await (await a.api('/models', { body: { name: 'Held', provider: 'openai_compatible', endpoint_url: upstream!.openaiBaseUrl, model: 'slow:600000' } })).json()) as { id: string };
    held.push(model.id);
    type Msg = { status: string; content: string };
    let messageId = '';
    let written = '';
    let cancelled: { message: Msg } | undefined;
    let following: Promise<Awaited<ReturnType<typeof collectChat>>> | undefined;
    const seen: Array<{ event: string | undefined; data: string }> = [];
    for await (const e of readSse(await a.api('/chat', { body: { message: 'count to ten', model_endpoint_override: model.id, stream: true } }))) {
      seen.push(e);
      if (e.event === 'message.created') messageId = (JSON.parse(e.data) as { message_id: string }).message_id;
      if (e.event === 'delta') {
        written += (JSON.parse(e.data) as { content: string }).content;
        if (cancelled) continue;
        // B follows the stored answer, then cancels it: B does not write it, A does.
        following = collectChat(await b.api(`/chat/${messageId}/stream`));
        const response = await b.api(`/chat/${messageId}/cancel`, { body: {} });
        expect(response.status).toBe(200);
        cancelled = (await response.json()) as { message: Msg };
        expect(cancelled.message).toMatchObject({ status: 'cancelled', content: written });
      }
    }
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(SLOW_TEXT.length);
    // A's own stream ends as a local cancel ends it.
    expect(seen.at(-1)?.event).toBe('message.completed');
    expect((JSON.parse(seen.at(-1)!.data) as { message: Msg }).message).toMatchObject({ status: 'cancelled', content: written });
    // The client following on B sees it end the same way.
    const followed = await following!;
    expect(followed.filter((e) => e.event === 'delta').map((e) => e.data.content as string).join('')).toBe(written);
    expect(followed.at(-1)).toMatchObject({ event: 'message.completed', data: { message: { status: 'cancelled', content: written } } });
  });

  it("cancels, through the other instance, a comparison this one writes: each answer ends cancelled, and this one's stream ends", async () => {
    const [a, b] = servers as [Served, Served];
    const second = (await (await a.api('/models', { body: { name: 'Held too', provider: 'openai_compatible', endpoint_url: upstream!.openaiBaseUrl, model: 'slow:600000' } })).json()) as { id: string };
    type Comparison = { id: string; responses: Array<{ status: string; content: string }> };
    let id = '';
    let cancelled: Comparison | undefined;
    const seen: string[] = [];
    for await (const e of readSse(await a.api('/comparisons', { body: { prompt: 'count to ten', model_ids: [held[0]!, second.id], stream: true } }))) {
      seen.push(e.event ?? '');
      if (e.event === 'comparison.created') id = (JSON.parse(e.data) as { comparison: Comparison }).comparison.id;
      if (e.event === 'delta' && !cancelled) {
        const response = await b.api(`/comparisons/${id}/cancel`, { body: {} });
        expect(response.status).toBe(200);
        cancelled = (await response.json()) as Comparison;
      }
    }
    expect(cancelled?.responses.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    // Each kept what it had written: its first word, if that came before the cancel.
    for (const response of cancelled?.responses ?? []) expect(['', 'one']).toContain(response.content);
    expect(seen).toContain('response.completed');
  });

  it('deleting, through the other instance, a thread whose answer this one writes stops that answer', async () => {
    const [a, b] = servers as [Served, Served];
    let threadId = '';
    let deleted = 0;
    const seen: string[] = [];
    for await (const e of readSse(await a.api('/chat', { body: { message: 'count to ten', model_endpoint_override: held[0]!, stream: true } }))) {
      seen.push(e.event ?? '');
      if (e.event === 'message.created') threadId = (JSON.parse(e.data) as { thread_id: string }).thread_id;
      if (e.event === 'delta' && !deleted) deleted = (await b.api(`/threads/${threadId}`, { method: 'DELETE' })).status;
    }
    // The stream ended (ten minutes before the model would have): A stopped writing.
    expect(deleted).toBe(204);
    expect(seen).toContain('delta');
    expect((await a.api(`/threads/${threadId}`)).status).toBe(404);
  });
});
