import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootCore, type BootOptions, type Core } from '../../main/boot.js';
import { startHttpServer } from '../../main/transport/http/server.js';

export const TEST_ADMIN_KEY = 'pk_TestOwnerKey0123456789abcdef';

export function tempDir(prefix = 'parley-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real core over a fresh data directory, its owner seeded with TEST_ADMIN_KEY. */
export function bootTestCore(options: Partial<BootOptions> = {}): Core & { remove: () => Promise<void> } {
  const { dir, remove } = tempDir();
  const core = bootCore({ dataDir: dir, appVersion: '0.0.0-test', adminApiKey: TEST_ADMIN_KEY, ...options });
  return Object.assign(core, {
    remove: async () => {
      await core.close();
      remove();
    },
  });
}

/** The core served over HTTP on a free loopback port, as served mode does. */
export async function startTestHttp(options: Partial<BootOptions> = {}) {
  const core = bootTestCore(options);
  const server = await startHttpServer(core, { port: 0, appVersion: '0.0.0-test' });
  const api = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const token = init.token === undefined ? TEST_ADMIN_KEY : init.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(`${server.url}/api${path}`, { ...init, headers });
  };
  return {
    core,
    url: server.url,
    api,
    close: async () => {
      await server.close();
      await core.remove();
    },
  };
}
