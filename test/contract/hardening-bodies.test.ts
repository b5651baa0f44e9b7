/**
 * Issue 27, items 5 and 8 and the "Also" line: credentials are checked on the headers before any
 * body is read (a stalled body with a bad token is answered 401 and closed at once, on every kind
 * of route); a dataset deleted while a file is uploading answers 404 and leaves no file behind (and
 * a start-up sweep removes blobs no artifact uses); new file keys and names may not hold
 * bidirectional control characters; a shutting-down server answers new requests 503 while the
 * requests under way finish, instead of refusing connections.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootCore } from '../../main/boot.js';
import { onTestStorage } from '../support/test-storage.js';
import { operations, type Operation } from '../../shared/operations/index.js';
import { FACADE_ROUTES } from '../../main/transport/http/facade-routes.js';
import { startHttpServer } from '../../main/transport/http/server.js';
import { bootTestCore, startTestHttp, TEST_ADMIN_KEY } from '../support/core.js';

let h: Awaited<ReturnType<typeof startTestHttp>>;

beforeAll(async () => {
  h = await startTestHttp();
});
afterAll(async () => {
  await h.close();
});

/** A raw HTTP/1.1 exchange under the test's control: it writes what the test says, when it says so. */
interface RawExchange {
  socket: Socket;
  /** Everything the server wrote, once it ended the connection. */
  ended: Promise<string>;
}

function openRaw(baseUrl: string, head: string): RawExchange {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect({ host: hostname, port: Number(port) });
  socket.write(head);
  const ended = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  return { socket, ended };
}

function headOf(method: string, path: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

function statusOf(response: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
}

function bodyOf(response: string): unknown {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
}

const BOUNDARY = 'parleyboundary27';
const MB = 1024 * 1024;

function formHead(path: string, token: string | null, length: number, extra: Record<string, string> = {}): string {
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(length), ...extra };
  return headOf('POST', path, token ? { ...headers, authorization: `Bearer ${token}` } : headers);
}

function filePartHead(filename: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`;
}

async function newDataset(name: string): Promise<{ id: string; kb_id: string }> {
  const res = await h.api('/datasets', { method: 'POST', body: JSON.stringify({ name }) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; kb_id: string };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('credentials are checked before the body is read', () => {
  const announced = { 'content-type': 'application/json', 'content-length': String(MB) };
  const cases: Array<{ name: string; head: () => string; status: number }> = [
    { name: 'a registry route with no token', head: () => headOf('POST', '/api/datasets', announced), status: 401 },
    { name: 'a registry route with a bad token', head: () => headOf('POST', '/api/chat', { ...announced, authorization: 'Bearer pk_NotARealKey0000000000' }), status: 401 },
    { name: 'a malformed Authorization header', head: () => headOf('PATCH', '/api/datasets/ds_x', { ...announced, authorization: 'Basic abc' }), status: 401 },
    { name: 'the multipart route with no token', head: () => formHead('/api/knowledge-bases/kb_x/artifacts', null, MB), status: 401 },
    { name: 'the OpenAI facade with a bad token', head: () => headOf('POST', '/v1/chat/completions', { ...announced, authorization: 'Bearer pk_NotARealKey0000000000' }), status: 401 },
    { name: 'the MCP endpoint with no token', head: () => headOf('POST', '/mcp', { ...announced, accept: 'application/json, text/event-stream' }), status: 401 },
    {
      name: 'a part PUT with a forged signature',
      head: () =>
        headOf('PUT', `/api/uploads/upl_x/parts/art_x/1?size=${MB}&expires=${Math.floor(Date.now() / 1000) + 600}&signature=forged`, {
          'content-type': 'application/octet-stream',
          'content-length': String(MB),
        }),
      status: 403,
    },
  ];

  for (const c of cases) {
    it(`${c.name}: answered ${c.status} and closed while the announced 1 MB body stalls`, async () => {
      const raw = openRaw(h.url, c.head());
      // A few bytes of the body, then nothing: the server must not wait for the rest.
      raw.socket.write('{"na');
      const response = await raw.ended;
      expect(statusOf(response)).toBe(c.status);
      expect(response).toMatch(/\r\nconnection: close\r\n/i);
      raw.socket.destroy();
    });
  }

  it('every registry operation that takes a body and a credential: 401 and closed before the body', async () => {
    const ops = (Object.values(operations) as Operation[]).filter((op) => op.access !== 'public' && op.http.method !== 'GET' && op.http.method !== 'DELETE');
    expect(ops.length).toBeGreaterThan(20);
    for (const op of ops) {
      const path = `/api${op.http.path.replace(/\{[a-z_]+\}/g, 'x_1')}`;
      const raw = openRaw(h.url, headOf(op.http.method, path, { ...announced, authorization: 'Bearer pk_NotARealKey0000000000' }));
      raw.socket.write('{"na');
      const response = await raw.ended;
      expect(statusOf(response), `${op.http.method} ${path}`).toBe(401);
      raw.socket.destroy();
    }
  });

  it('every declared /v1 route that takes a body (chat completions, embeddings, messages): 401 and closed before the body', async () => {
    const routes = FACADE_ROUTES.filter((r) => r.method === 'POST');
    expect(routes.map((r) => r.url)).toEqual(expect.arrayContaining(['/v1/chat/completions', '/v1/embeddings', '/v1/messages']));
    for (const route of routes) {
      for (const credential of [null, 'pk_NotARealKey0000000000']) {
        const key: Record<string, string> = credential === null ? {} : route.credential === 'x-api-key' ? { 'x-api-key': credential } : { authorization: `Bearer ${credential}` };
        const raw = openRaw(h.url, headOf(route.method, route.url, { ...announced, ...key }));
        raw.socket.write('{"mo');
        const response = await raw.ended;
        expect(statusOf(response), `${route.url} ${credential ?? 'no key'}`).toBe(401);
        expect(response).toMatch(/\r\nconnection: close\r\n/i);
        raw.socket.destroy();
      }
    }
  });

  it('a good token still gets its body read and answered', async () => {
    const body = JSON.stringify({ name: 'Read after auth' });
    const raw = openRaw(h.url, headOf('POST', '/api/datasets', { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), authorization: `Bearer ${TEST_ADMIN_KEY}`, connection: 'close' }));
    raw.socket.write(body);
    const response = await raw.ended;
    expect(statusOf(response)).toBe(201);
    raw.socket.destroy();
  });
});

describe('a dataset deleted while a file uploads', () => {
  it('the multipart route answers 404 and keeps no bytes', async () => {
    const ds = await newDataset('Deleted mid-form');
    const first = Buffer.alloc(256 * 1024, 'a');
    const rest = Buffer.alloc(256 * 1024, 'b');
    const opening = filePartHead('held.txt');
    const closing = `\r\n--${BOUNDARY}--\r\n`;
    const length = Buffer.byteLength(opening) + first.length + rest.length + Buffer.byteLength(closing);
    // Sent whole: the connection ends after the answer because the client asks it to.
    const raw = openRaw(h.url, formHead(`/api/knowledge-bases/${ds.kb_id}/artifacts`, TEST_ADMIN_KEY, length, { connection: 'close' }));
    raw.socket.write(opening);
    raw.socket.write(first);
    // The file is being stored: its row exists, its bytes are arriving.
    await vi.waitFor(() => expect(h.core.repos.artifacts.inKb(ds.kb_id).map((a) => a.status)).toEqual(['uploading']));
    expect((await h.api(`/datasets/${ds.id}`, { method: 'DELETE' })).status).toBe(204);
    raw.socket.write(rest);
    raw.socket.write(closing);
    const response = await raw.ended;
    expect(statusOf(response)).toBe(404);
    expect(bodyOf(response)).toMatchObject({ code: 'not_found', detail: expect.stringMatching(/deleted while it was uploading/) });
    expect(filesUnder(join(h.core.dataDir, 'blobs'))).toEqual([]);
    expect(filesUnder(join(h.core.dataDir, 'tmp'))).toEqual([]);
  });

  it('a signed part PUT answers 404 (not a foreign-key failure) and keeps no part', async () => {
    const ds = await newDataset('Deleted mid-part');
    const size = 512 * 1024;
    const created = await h.api('/uploads', { method: 'POST', body: JSON.stringify({ kb_id: ds.kb_id, files: [{ key: 'part.txt', filename: 'part.txt', size }] }) });
    expect(created.status).toBe(201);
    const upload = (await created.json()) as { files: Array<{ artifact_id: string; urls: Array<{ url: string }> }> };
    const file = upload.files[0];
    const url = new URL(file?.urls[0]?.url ?? '');
    const raw = openRaw(h.url, headOf('PUT', `${url.pathname}${url.search}`, { 'content-type': 'application/octet-stream', 'content-length': String(size), connection: 'close' }));
    raw.socket.write(Buffer.alloc(size / 2, 'p'));
    // The part is being captured: its temp file exists.
    await vi.waitFor(() => expect(filesUnder(join(h.core.dataDir, 'tmp')).length).toBe(1));
    expect((await h.api(`/datasets/${ds.id}`, { method: 'DELETE' })).status).toBe(204);
    raw.socket.write(Buffer.alloc(size / 2, 'q'));
    const response = await raw.ended;
    expect(statusOf(response)).toBe(404);
    expect(bodyOf(response)).toMatchObject({ code: 'not_found' });
    expect(response).not.toMatch(/FOREIGN KEY/);
    expect(filesUnder(join(h.core.dataDir, 'upload-parts'))).toEqual([]);
    expect(filesUnder(join(h.core.dataDir, 'tmp'))).toEqual([]);
  });

  it('a start-up sweep removes stored blobs no artifact uses, and keeps the others', async () => {
    const core = bootTestCore();
    const server = await startHttpServer(core, { port: 0, appVersion: 't' });
    const form = new FormData();
    form.append('file', new Blob(['kept bytes']), 'kept.txt');
    const ds = (await (await fetch(`${server.url}/api/datasets`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Sweep' }) })).json()) as { kb_id: string };
    const stored = await fetch(`${server.url}/api/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` }, body: form });
    expect(stored.status).toBe(201);
    await server.close();
    const dataDir = core.dataDir;
    await core.close();
    const kept = filesUnder(join(dataDir, 'blobs'));
    expect(kept).toHaveLength(1);
    // What a crash between storing and recording, or an older build's race, left behind.
    const orphan = 'ab'.repeat(32);
    mkdirSync(join(dataDir, 'blobs', 'ab'), { recursive: true });
    writeFileSync(join(dataDir, 'blobs', 'ab', orphan), 'nobody uses these bytes');
    const again = bootCore(onTestStorage({ dataDir, appVersion: 't', watchConfigFile: false }));
    try {
      // Swept before the core is handed out: nothing can have adopted the orphan meanwhile.
      expect(filesUnder(join(dataDir, 'blobs'))).toEqual(kept);
    } finally {
      await again.close();
      await core.remove();
    }
  });
});

describe('bidirectional control characters in new keys and file names', () => {
  it('a multipart file name with a right-to-left override is refused 400, the character shown', async () => {
    const ds = await newDataset('Bidi form');
    const form = new FormData();
    form.append('file', new Blob(['spoof']), 'invoice\u202Efdp.exe');
    const res = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('invalid_argument');
    expect(body.detail).toContain('invoice<U+202E>fdp.exe');
    expect(body.detail).not.toContain('\u202E');
    expect(h.core.repos.artifacts.inKb(ds.kb_id)).toEqual([]);
  });

  it.each(['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'])('uploads.create refuses U+%s in a key or a file name', async (c) => {
    const ds = await newDataset(`Bidi ${c.codePointAt(0)}`);
    for (const file of [
      { key: `report${c}.pdf`, filename: 'report.pdf', path: 'files.0.key' },
      { key: 'report.pdf', filename: `report${c}.pdf`, path: 'files.0.filename' },
    ]) {
      const res = await h.api('/uploads', { method: 'POST', body: JSON.stringify({ kb_id: ds.kb_id, files: [{ key: file.key, filename: file.filename, size: 10 }] }) });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; errors: Array<{ path: string; message: string }> };
      expect(body.code).toBe('invalid_argument');
      expect(body.errors).toContainEqual({ path: file.path, message: expect.stringMatching(/bidirectional control characters/) });
    }
  });

  it('right-to-left text itself is a fine name', async () => {
    const ds = await newDataset('RTL');
    const form = new FormData();
    form.append('file', new Blob(['שלום']), 'מסמך.txt');
    const res = await h.api(`/knowledge-bases/${ds.kb_id}/artifacts`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
  });
});

describe('shutdown over HTTP', () => {
  it('new requests are answered 503 unavailable while a request under way finishes, not refused at the TCP level', async () => {
    const core = bootTestCore();
    const server = await startHttpServer(core, { port: 0, appVersion: 't' });
    try {
      const ds = (await (await fetch(`${server.url}/api/datasets`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Held' }) })).json()) as { kb_id: string };
      // An upload under way, held open by the test.
      const held = openRaw(server.url, formHead(`/api/knowledge-bases/${ds.kb_id}/artifacts`, TEST_ADMIN_KEY, 10 * MB));
      held.socket.write(filePartHead('held.txt'));
      held.socket.write(Buffer.alloc(1024, 'h'));
      await vi.waitFor(() => expect(core.repos.artifacts.inKb(ds.kb_id)).toHaveLength(1));

      let closed = false;
      const closing = server.close().then(() => (closed = true));
      for (const path of ['/api/health', '/api/datasets', '/api/openapi.json']) {
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` } });
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(res.headers.get('connection')).toBe('close');
        expect(await res.json()).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/shutting down/) });
      }
      expect(closed).toBe(false);
      // The request under way ends: then the server closes.
      held.socket.destroy();
      await closing;
      await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
    } finally {
      await core.remove();
    }
  });
});
