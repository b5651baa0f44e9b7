/**
 * Issue 33: two instances behind nginx with the example configuration of docs/team-server/nginx.conf
 * (the file itself, its ports and nothing else changed), as docs/team-server.md tells a team to run
 * them. nginx comes from Debian (`.ci/run` installs nginx-light).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../support/core.js';
import { freshDatabaseUrl } from '../../support/postgres-db.js';
import { randomApiKey, startServed, type Served } from '../../support/served.js';
import { collectChat } from '../../support/sse.js';

const EXAMPLE = fileURLToPath(new URL('../../../docs/team-server/nginx.conf', import.meta.url));
const NGINX = '/usr/sbin/nginx';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const portOf = (s: Served) => Number(new URL(s.url).port);

describe('two instances behind nginx (docs/team-server/nginx.conf)', () => {
  const dir = tempDir('parley-proxy-');
  const servers: Served[] = [];
  let nginx: ChildProcess | undefined;
  let proxy = '';
  const key = randomApiKey();

  beforeAll(async () => {
    expect(spawnSync(NGINX, ['-v']).status, `${NGINX} is missing: apt-get install nginx-light (.ci/run does)`).toBe(0);
    const env = { PARLEY_DATABASE_URL: freshDatabaseUrl() };
    const dataDir = join(dir.dir, 'data');
    servers.push(await startServed({ dataDir, adminApiKey: key, env }));
    servers.push(await startServed({ dataDir, adminApiKey: key, env }));
    const listen = await freePort();
    const example = readFileSync(EXAMPLE, 'utf8');
    const site = example
      .replace('server 127.0.0.1:4317;', `server 127.0.0.1:${portOf(servers[0]!)};`)
      .replace('server 127.0.0.1:4318;', `server 127.0.0.1:${portOf(servers[1]!)};`)
      .replace('listen 8080;', `listen 127.0.0.1:${listen};`);
    expect(site).not.toBe(example);
    writeFileSync(join(dir.dir, 'parley.conf'), site);
    // What Debian's /etc/nginx/nginx.conf gives the file, with this test's own paths.
    const t = dir.dir;
    writeFileSync(
      join(t, 'nginx.conf'),
      `daemon off; pid ${t}/nginx.pid; error_log ${t}/error.log; user root;
       events { worker_connections 256; }
       http { access_log off; client_body_temp_path ${t}/body; proxy_temp_path ${t}/proxy;
              fastcgi_temp_path ${t}/fastcgi; uwsgi_temp_path ${t}/uwsgi; scgi_temp_path ${t}/scgi;
              include ${t}/parley.conf; }`,
    );
    nginx = spawn(NGINX, ['-c', join(t, 'nginx.conf'), '-p', t], { stdio: 'ignore' });
    proxy = `http://127.0.0.1:${listen}`;
    await vi.waitFor(async () => expect((await fetch(`${proxy}/api/health`)).status).toBe(200));
  });

  afterAll(async () => {
    nginx?.kill('SIGQUIT');
    await Promise.all(servers.map((s) => s.stop()));
    dir.remove();
  });

  const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${proxy}/api${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { authorization: `Bearer ${key}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? null : JSON.stringify(init.body),
    });

  it('spreads requests over both instances, which answer as one', async () => {
    const instances = new Set<string>();
    for (let i = 0; i < 8; i++) instances.add(((await (await api('/health')).json()) as { instance: string }).instance);
    expect(instances.size).toBe(2);
    const created = (await (await api('/threads', { body: { title: 'Through the proxy' } })).json()) as { id: string };
    for (let i = 0; i < 4; i++) expect((await api(`/threads/${created.id}`)).status).toBe(200);
  });

  it('streams an answer through the proxy, and the other instance replays the finished answer', async () => {
    const events = await collectChat(await api('/chat', { body: { message: 'hello there', model_endpoint_override: 'mdl_extractive', stream: true } }));
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('message.created');
    expect(names).toContain('message.completed');
    const messageId = events[0]?.data.message_id as string;
    // Each instance, asked directly: the answer is in the database they share.
    for (const server of servers) {
      const res = await server.api(`/chat/${messageId}/stream`);
      expect(res.status).toBe(200);
      const replay = await collectChat(res);
      expect(replay.map((e) => e.event)).toContain('message.completed');
    }
  });
});
