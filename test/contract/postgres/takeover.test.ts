/**
 * Issue 33, point 3: background work between instances on one PostgreSQL database. An instance
 * starting beside a live one leaves that one's answers and files alone; a killed instance's answer
 * ends interrupted on the other; a file claimed by a live instance is left to it, and taken over
 * once that instance is silent past its lease. The heartbeat is made short (100 ms, lease 1 s) so
 * the tests wait on events, not on minutes.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { PostgresDb } from '../../../main/db/postgres/connection.js';
import { tempDir } from '../../support/core.js';
import { freshDatabaseUrl } from '../../support/postgres-db.js';
import { randomApiKey, startServed, type Served } from '../../support/served.js';
import { collectChat, readSse } from '../../support/sse.js';
import { SLOW_TEXT, startUpstream, type Upstream } from '../../fixtures/upstream.js';
import { ggufBytes, startDownloadServer } from '../../fixtures/download-server.js';

interface Message {
  id: string;
  status: string;
  content: string;
}

const url = freshDatabaseUrl();
const env = { PARLEY_DATABASE_URL: url, PARLEY_INSTANCE_HEARTBEAT_MS: '100', PARLEY_INSTANCE_LEASE_MS: '1000' };
const key = randomApiKey();
const dir = tempDir('parley-takeover-');
const servers: Served[] = [];
let upstream: Upstream;
let db: PostgresDb;

async function start(): Promise<Served> {
  const served = await startServed({ dataDir: dir.dir, adminApiKey: key, env });
  servers.push(served);
  return served;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await upstream?.close();
  db?.close();
  dir.remove();
});

/** Starts an answer on `on` and resolves with its id and the rest of its events once `until` arrives. */
async function answer(on: Served, modelId: string, until: 'message.created' | 'delta') {
  const events = readSse(await on.api('/chat', { body: { message: 'count to ten', model_endpoint_override: modelId, stream: true } }))[Symbol.asyncIterator]();
  let messageId = '';
  let threadId = '';
  for (let e = await events.next(); !e.done; e = await events.next()) {
    if (e.value.event === 'message.created') ({ message_id: messageId, thread_id: threadId } = JSON.parse(e.value.data) as { message_id: string; thread_id: string });
    if (e.value.event === until) break;
  }
  return { messageId, threadId, rest: events };
}

async function messageOf(on: Served, threadId: string, messageId: string): Promise<Message | undefined> {
  const page = (await (await on.api(`/threads/${threadId}/messages`)).json()) as { data: Message[] };
  return page.data.find((m) => m.id === messageId);
}

describe('background work between instances', () => {
  it('an instance starting beside a live one leaves the answer that one is writing alone', async () => {
    upstream = await startUpstream();
    const a = await start();
    const model = (await (await a.api('/models', { body: { name: 'Slow', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:10' } })).json()) as { id: string };
    const hold = upstream.hold('/v1/chat/completions');
    const writing = await answer(a, model.id, 'message.created');
    // B starts while A's answer waits on the model: B's start-up must not take it for a dead run's.
    const b = await start();
    expect((await messageOf(b, writing.threadId, writing.messageId))?.status).toBe('streaming');
    hold.release();
    for (let e = await writing.rest.next(); !e.done; e = await writing.rest.next());
    expect(await messageOf(b, writing.threadId, writing.messageId)).toMatchObject({ status: 'complete', content: SLOW_TEXT });
  });

  it("a killed instance's answer ends interrupted on the other, its text so far kept, and one following it there sees the end", async () => {
    const [a, b] = servers as [Served, Served];
    const model = (await (await a.api('/models', { body: { name: 'Slower', provider: 'openai_compatible', endpoint_url: upstream.openaiBaseUrl, model: 'slow:400' } })).json()) as { id: string };
    const writing = await answer(a, model.id, 'delta');
    const following = collectChat(await b.api(`/chat/${writing.messageId}/stream`));
    // Killed once some of its text is stored.
    await vi.waitFor(async () => expect((await messageOf(b, writing.threadId, writing.messageId))?.content).not.toBe(''));
    await a.kill('SIGKILL');
    // B's next heartbeat finds A's process gone from this host: it does not wait for the lease.
    const events = await following;
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'unavailable' } });
    const stored = await messageOf(b, writing.threadId, writing.messageId);
    expect(stored?.status).toBe('interrupted');
    expect(SLOW_TEXT.startsWith(stored?.content ?? 'x')).toBe(true);
    expect(stored?.content.length).toBeGreaterThan(0);
  });

  it('a file a live instance claimed is left to it; once that instance is silent past its lease, another processes it', async () => {
    const b = servers[1] as Served;
    db = new PostgresDb(url);
    // An instance on another host, alive as far as anyone can tell (its heartbeat is in the future).
    db.query("INSERT INTO instances (id, host, pid, recovers, started_at, seen_at) VALUES ('inst_elsewhere', 'elsewhere', 1, 1, '2026-01-01T00:00:00Z', '2100-01-01T00:00:00Z')");
    const dataset = (await (await b.api('/datasets', { body: { name: 'Handbook' } })).json()) as { kb_id: string };
    const text = 'The quarterly report is due on the fifth.\n';
    const created = (await (await b.api('/uploads', { body: { kb_id: dataset.kb_id, files: [{ key: 'report.txt', filename: 'report.txt', size: Buffer.byteLength(text) }] } })).json()) as {
      upload_id: string;
      files: Array<{ artifact_id: string; urls: Array<{ method: string; url: string }> }>;
    };
    const file = created.files[0]!;
    db.query("INSERT INTO claims (kind, key, instance, claimed_at) VALUES ('ingest', $1, 'inst_elsewhere', '2026-01-01T00:00:00Z')", [file.artifact_id]);
    const part = file.urls[0]!;
    expect((await fetch(new URL(part.url, b.url), { method: part.method, body: text })).ok).toBe(true);
    expect((await b.api(`/uploads/${created.upload_id}/complete`, { method: 'POST' })).ok).toBe(true);

    // Two of B's heartbeats later (each takes up what nobody live holds), the file is still the other's.
    const beats = (): number => Date.parse(db.query<{ seen_at: string }>("SELECT seen_at FROM instances WHERE host <> 'elsewhere' ORDER BY seen_at DESC LIMIT 1").rows[0]!.seen_at);
    const before = beats();
    await vi.waitFor(() => expect(beats()).toBeGreaterThan(before));
    const once = beats();
    await vi.waitFor(() => expect(beats()).toBeGreaterThan(once));
    const artifact = async () => ((await (await b.api(`/knowledge-bases/${dataset.kb_id}/artifacts`)).json()) as { data: Array<{ id: string; status: string }> }).data[0];
    expect((await artifact())?.status).toBe('processing');

    // It falls silent: B removes it and processes the file.
    db.query("UPDATE instances SET seen_at = '2000-01-01T00:00:00Z' WHERE id = 'inst_elsewhere'");
    await vi.waitFor(async () => expect((await artifact())?.status).toBe('ready'));
    expect(db.query("SELECT id FROM instances WHERE id = 'inst_elsewhere'").rows).toEqual([]);
    expect(db.query('SELECT kind FROM claims WHERE key = $1', [file.artifact_id]).rows).toEqual([]);
  });

  it("an instance starting beside a live one leaves that one's upload in flight alone", async () => {
    const b = servers[1] as Served;
    const dataset = (await (await b.api('/datasets', { body: { name: 'Minutes' } })).json()) as { kb_id: string };
    const boundary = 'parley-boundary';
    let send: (text: string) => void = () => {};
    let end: () => void = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = (text) => controller.enqueue(new TextEncoder().encode(text));
        end = () => controller.close();
      },
    });
    const uploading = fetch(`${b.url}/api/knowledge-bases/${dataset.kb_id}/artifacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    send(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="minutes.txt"\r\nContent-Type: text/plain\r\n\r\nThe board met on Tuesday.\n`);
    const listed = async () => ((await (await b.api(`/knowledge-bases/${dataset.kb_id}/artifacts`)).json()) as { data: Array<{ status: string }> }).data;
    await vi.waitFor(async () => expect((await listed())[0]?.status).toBe('uploading'));
    // C's start-up sweep must not take B's half-received file for one a crash cut off.
    await start();
    send(`It approved the budget.\n\r\n--${boundary}--\r\n`);
    end();
    const response = await uploading;
    expect(response.status, await response.clone().text()).toBe(201);
    await vi.waitFor(async () => expect((await listed())[0]?.status).toBe('ready'));
  });

  it('a download cancelled through another instance stops on the one running it, and its part file goes', async () => {
    const [b, c] = servers.slice(-2) as [Served, Served];
    const files = await startDownloadServer();
    try {
      const url = files.add('/files/held.gguf', { bytes: ggufBytes(300_000), holdAt: 100_000 });
      const started = (await (await b.api('/models/downloads', { body: { url } })).json()) as { id: string };
      await vi.waitFor(() => expect(files.held()).toBe(100_000));
      const cancelled = await c.api(`/models/downloads/${started.id}`, { method: 'DELETE' });
      expect(cancelled.status).toBe(200);
      expect(((await cancelled.json()) as { status: string }).status).toBe('cancelled');
      // B closes its connection (C could not: B holds it) and removes the part file it was writing.
      await vi.waitFor(() => expect(files.abandoned()).toBe(1));
      await vi.waitFor(() => expect(existsSync(join(dir.dir, 'downloads', `${started.id}.part`))).toBe(false));
      expect(((await (await b.api(`/models/downloads/${started.id}`)).json()) as { status: string }).status).toBe('cancelled');
    } finally {
      files.release();
      await files.close();
    }
  });
});
