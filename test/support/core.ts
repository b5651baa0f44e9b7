import Database from 'better-sqlite3';
import { pino } from 'pino';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootCore, type BootOptions, type Core } from '../../main/boot.js';
import { startHttpServer } from '../../main/transport/http/server.js';
import { databaseFor } from './test-storage.js';

export { testStorage } from './test-storage.js';

export const TEST_ADMIN_KEY = 'pk_TestOwnerKey0123456789abcdef';

/** The core's SQLite connection, for a test of what only SQLite has (its page limit, its files). */
export function sqliteOf(core: Pick<Core, 'db'>): Database.Database {
  if (!(core.db instanceof Database)) throw new Error('This test reads SQLite: its core runs on another database.');
  return core.db;
}

export function tempDir(prefix = 'parley-test-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real core over a fresh data directory, its owner seeded with TEST_ADMIN_KEY. */
export function bootTestCore(options: Partial<BootOptions> = {}): Core & { remove: () => Promise<void> } {
  const { dir, remove } = tempDir();
  const core = bootCore({ dataDir: dir, appVersion: '0.0.0-test', adminApiKey: TEST_ADMIN_KEY, databaseUrl: databaseFor(options.dataDir ?? dir), ...(process.env.PARLEY_TEST_LOG ? { log: { info: () => {}, warn: (m: string) => console.warn('[core]', m), error: (m: string, e?: unknown) => console.warn('[core]', m, e) } } : {}), ...options });
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
  const server = await startHttpServer(core, { port: 0, appVersion: '0.0.0-test', ...(process.env.PARLEY_TEST_LOG ? { logger: pino({ level: 'error' }) } : {}) });
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
