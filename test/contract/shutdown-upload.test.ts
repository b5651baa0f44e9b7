/**
 * Issue 27 ("Also", SIGTERM): served mode closes the database before the HTTP server (answers
 * under way are stored first), so an upload whose bytes are still arriving then finds no database.
 * It must end as every request does while Parley shuts down — 503 `unavailable` — not as a 500
 * logged as an unexpected error. The order of serve.ts's shutdown: core.close(), then server.close().
 */
import { connect } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { startHttpServer } from '../../main/transport/http/server.js';
import { bootTestCore, TEST_ADMIN_KEY } from '../support/core.js';

const BOUNDARY = 'shutdownboundary';

describe('an upload under way when Parley shuts down', () => {
  it('ends 503 unavailable once the database has closed, and logs no unexpected error', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const core = bootTestCore();
    const server = await startHttpServer(core, { port: 0, appVersion: 't', logger });
    try {
      const ds = (await (
        await fetch(`${server.url}/api/datasets`, { method: 'POST', headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Closing' }) })
      ).json()) as { kb_id: string };

      const opening = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="late.txt"\r\nContent-Type: text/plain\r\n\r\n`;
      const first = Buffer.alloc(64 * 1024, 'a');
      const rest = Buffer.alloc(64 * 1024, 'b');
      const closingBoundary = `\r\n--${BOUNDARY}--\r\n`;
      const length = Buffer.byteLength(opening) + first.length + rest.length + Buffer.byteLength(closingBoundary);
      const { hostname, port } = new URL(server.url);
      const socket = connect({ host: hostname, port: Number(port) });
      let response = '';
      const ended = new Promise<string>((resolve, reject) => {
        socket.setEncoding('utf8').on('data', (chunk: string) => (response += chunk));
        socket.on('end', () => resolve(response));
        socket.on('error', reject);
      });
      socket.write(
        `POST /api/knowledge-bases/${ds.kb_id}/artifacts HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${TEST_ADMIN_KEY}\r\n` +
          `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n${opening}`,
      );
      socket.write(first);
      await vi.waitFor(() => expect(core.repos.artifacts.inKb(ds.kb_id)).toHaveLength(1));

      // SIGTERM in served mode: the core closes (its database with it), then the server drains.
      await core.close();
      const closing = server.close();
      socket.write(rest);
      socket.write(closingBoundary);
      const answer = await ended;
      expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1])).toBe(503);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'unavailable', detail: expect.stringMatching(/shutting down/) });
      socket.destroy();
      await closing;
      const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(logged.filter((l) => l.level >= 50 || /unexpected/.test(l.msg))).toEqual([]);
    } finally {
      await core.remove();
    }
  });
});
