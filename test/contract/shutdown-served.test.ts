/**
 * Issue 27 ("Also"): on SIGTERM served mode keeps answering while a request under way finishes —
 * every new request, on a new connection, gets 503 `unavailable` (a problem), as docs/api.md says,
 * rather than a refused connection. The built server, stopped as a service manager would.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServed, type Served } from '../support/served.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.kill('SIGKILL');
  served = undefined;
});

describe('served mode on SIGTERM', () => {
  it('answers new requests 503 until the request under way has ended, then exits cleanly', async () => {
    served = await startServed({ args: ['--no-sign-in-link'] });
    const s = served;
    const ds = (await (await s.api('/datasets', { body: { name: 'Held at shutdown' } })).json()) as { kb_id: string };
    // An upload under way, its body held by the test.
    const { hostname, port } = new URL(s.url);
    const held = connect({ host: hostname, port: Number(port) });
    held.on('error', () => {});
    const boundary = 'heldboundary';
    held.write(
      `POST /api/knowledge-bases/${ds.kb_id}/artifacts HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${s.apiKey}\r\n` +
        `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${10 * 1024 * 1024}\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.txt"\r\nContent-Type: text/plain\r\n\r\n${'h'.repeat(1024)}`,
    );
    await vi.waitFor(async () => {
      const listed = (await (await s.api(`/knowledge-bases/${ds.kb_id}/artifacts`)).json()) as { data: Array<{ status: string }> };
      expect(listed.data.map((a) => a.status)).toEqual(['uploading']);
    });

    const stopped = s.stop();
    await vi.waitFor(() => expect(s.output()).toMatch(/SIGTERM: shutting down/));
    for (const path of ['/api/health', '/api/datasets']) {
      const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.apiKey}` } });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/shutting down/) });
    }
    held.destroy();
    expect(await stopped).toEqual({ code: 0, signal: null });
    served = undefined;
  });
});
