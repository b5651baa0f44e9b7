import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../shared/bridge.js';
import { operations, type Operation } from '../../shared/operations/index.js';
import { handlers, streamHandlers } from '../../main/core/handlers.js';
import { buildHttpApp } from '../../main/transport/http/app.js';
import { registerIpc } from '../../main/transport/ipc/index.js';
import { bootTestCore } from '../support/core.js';
import { FakeIpcMain } from '../support/fake-ipc.js';

const ops = Object.entries(operations) as Array<[string, Operation]>;
let core: ReturnType<typeof bootTestCore>;
let ipcMain: FakeIpcMain;
let app: Awaited<ReturnType<typeof buildHttpApp>>;

beforeAll(async () => {
  core = bootTestCore();
  ipcMain = new FakeIpcMain();
  registerIpc({ ipcMain, service: core.service, desktopCaller: core.desktopCaller, isTrustedUrl: (u) => u.startsWith('app://parley/'), logError: () => {} });
  app = await buildHttpApp({ service: core.service, config: core.config, appVersion: 't' });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  core.remove();
});

describe('one registry, two transports', () => {
  it.each(ops)('%s: its name is its key and a core function serves it', (key, op) => {
    expect(op.name).toBe(key);
    expect(typeof handlers[key as keyof typeof handlers]).toBe('function');
    if (op.streaming) expect(typeof streamHandlers[key as keyof typeof streamHandlers]).toBe('function');
  });

  it.each(ops)('%s: HTTP has its route', (_key, op) => {
    expect(app.hasRoute({ method: op.http.method, url: `/api${op.http.path.replace(/\{([a-z_]+)\}/g, ':$1')}` })).toBe(true);
  });

  it.each(ops)('%s: IPC dispatches it (the operation is known, whatever the input)', async (key, op) => {
    const result = await ipcMain.call({ operation: key, input: {} });
    if (!result.ok) {
      expect(result.error.detail).not.toMatch(/no operation named/);
      if (op.streaming?.mode === 'always') expect(result.error.detail).toMatch(/only streams/);
    }
  });

  it('the same call answers the same over both transports', async () => {
    const owner = core.desktopCaller();
    const key = (await core.service.invoke('apiKeys.create', { name: 'parity' }, owner)) as { key: string };
    for (const [name, path] of [['identity.me', '/api/me'], ['models.list', '/api/models'], ['apiKeys.list', '/api/api-keys'], ['threads.list', '/api/threads']] as const) {
      const overIpc: IpcResult = await ipcMain.call({ operation: name, input: {} });
      const overHttp = await app.inject({ method: 'GET', url: path, headers: { authorization: `Bearer ${key.key}`, host: '127.0.0.1' } });
      expect(overIpc.ok, name).toBe(true);
      if (overIpc.ok) expect(overIpc.value, name).toEqual(overHttp.json());
    }
  });
});
