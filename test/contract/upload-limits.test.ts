/**
 * Issue 10, item 6: a multipart upload over `[uploads] max_file_mb` is answered 413 problem at
 * once, and the server stops reading — with a real streaming request that keeps sending. Issue 31
 * item 5: the limits are told to clients, so the upload page can refuse a file before sending it.
 */
import { writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_TEMPLATE } from '../../main/core/platform/config/template.js';
import { startTestHttp, tempDir, TEST_ADMIN_KEY } from '../support/core.js';

const MB = 1024 * 1024;
let h: Awaited<ReturnType<typeof startTestHttp>>;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  dir = tempDir();
  writeFileSync(join(dir.dir, 'parley.toml'), CONFIG_TEMPLATE.replace('max_file_mb = 100', 'max_file_mb = 1'));
  h = await startTestHttp({ dataDir: dir.dir });
});
afterAll(async () => {
  await h.close();
  dir.remove();
});

interface Streamed {
  response: IncomingMessage;
  body: string;
  /** Bytes of the body written before the answer came. */
  sent: number;
}

/**
 * POSTs a multipart form whose one file never ends (up to `cap` bytes), writing as fast as the
 * server reads, until the response arrives.
 */
function streamForm(path: string, filename: string, cap: number, token: string | null = TEST_ADMIN_KEY): Promise<Streamed> {
  const boundary = 'parleyboundary7d1f';
  const url = new URL(`${h.url}/api${path}`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    req.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8').on('data', (c: string) => (body += c));
      response.on('end', () => resolve({ response, body, sent }));
      response.on('error', reject);
    });
    // Once answered, the server may close while we still write: that is the point.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!answered && sent < cap) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end(`\r\n--${boundary}--\r\n`);
    };
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`);
    pump();
  });
}

describe('an oversized multipart upload', () => {
  it('is answered 413 problem while the client is still sending, and nothing of it is kept', async () => {
    const created = await h.api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'Limits' }) });
    const { kb_id } = (await created.json()) as { kb_id: string };
    // The client would send 512 MB; the answer must come long before.
    const result = await streamForm(`/knowledge-bases/${kb_id}/artifacts`, 'endless.txt', 512 * MB);
    expect(result.response.statusCode).toBe(413);
    expect(result.response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(result.response.headers.connection).toBe('close');
    const problem = JSON.parse(result.body) as { code: string; detail: string };
    expect(problem.code).toBe('payload_too_large');
    expect(problem.detail).toMatch(/endless\.txt.*1 MB/);
    // Read no further than the limit plus what sockets buffer on the way.
    expect(result.sent).toBeLessThan(64 * MB);

    // No half-written artifact holds the key: the same key goes up at once with a small file.
    const list = (await (await h.api(`/knowledge-bases/${kb_id}/artifacts`)).json()) as { data: unknown[] };
    expect(list.data).toEqual([]);
    const form = new FormData();
    form.append('file', new Blob(['small enough']), 'endless.txt');
    const again = await h.api(`/knowledge-bases/${kb_id}/artifacts`, { method: 'POST', body: form });
    expect(again.status, await again.clone().text()).toBe(201);
  }, 60_000);

  it('without a valid token is answered 401 at once, the body unread', async () => {
    const created = await h.api('/datasets', { method: 'POST', body: JSON.stringify({ name: 'Limits 2' }) });
    const { kb_id } = (await created.json()) as { kb_id: string };
    const result = await streamForm(`/knowledge-bases/${kb_id}/artifacts`, 'x.txt', 512 * MB, 'pk_wrong0000000000000000000000000');
    expect(result.response.statusCode).toBe(401);
    expect(result.response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(result.sent).toBeLessThan(64 * MB);
  }, 60_000);
});

describe('GET /upload-limits', () => {
  it('tells a signed-in client the size limit and the allowed types with their extensions, for its picker', async () => {
    const res = await h.api('/upload-limits');
    expect(res.status).toBe(200);
    const limits = (await res.json()) as { max_file_bytes: number; allowed_types: string[]; extensions: string[] };
    expect(limits.max_file_bytes).toBe(1 * MB);
    expect(limits.allowed_types).toContain('text/markdown');
    expect(limits.extensions).toEqual(expect.arrayContaining(['.md', '.pdf', '.docx', '.txt', '.csv', '.json', '.html']));
    expect((await h.api('/upload-limits', { token: null })).status).toBe(401);
  });
});
