import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_INVOKE, type IpcResult } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import { INTERNAL_DETAIL } from '../../../main/transport/ipc/error-payload.js';
import { registerIpc, type IpcDeps } from '../../../main/transport/ipc/index.js';
import { FakeIpcMain } from '../../support/fake-ipc.js';
import { bootTestCore } from '../../support/core.js';

const isTrustedUrl = (url: string) => url.startsWith('app://parley/');

function expectError(result: IpcResult, code: string) {
  if (result.ok) throw new Error(`expected ${code}, got ok: ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe(code);
  return result.error;
}

describe('registerIpc over a real core', () => {
  let core: ReturnType<typeof bootTestCore>;
  let ipcMain: FakeIpcMain;
  let logError: ReturnType<typeof vi.fn<IpcDeps['logError']>>;
  let dispose: () => void;

  beforeEach(() => {
    core = bootTestCore();
    ipcMain = new FakeIpcMain();
    logError = vi.fn<IpcDeps['logError']>();
    dispose = registerIpc({ ipcMain, service: core.service, desktopCaller: core.desktopCaller, isTrustedUrl, logError });
  });
  afterEach(() => {
    dispose();
    core.remove();
  });

  it('answers identity.me as the desktop profile: the owner, a super admin', async () => {
    const result = await ipcMain.call({ operation: 'identity.me' });
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const value = result.value as { user: { id: string; role: string } };
    expect(value.user.role).toBe('super_admin');
    expect(value.user.id).toBe(core.desktopCaller().user.id);
  });

  it('passes the input through, and the call acts as the owner', async () => {
    const created = await ipcMain.call({ operation: 'apiKeys.create', input: { name: 'laptop' } });
    if (!created.ok) throw new Error(JSON.stringify(created.error));
    expect((created.value as { key: string }).key).toMatch(/^pk_/);
    const listed = await ipcMain.call({ operation: 'apiKeys.list', input: {} });
    if (!listed.ok) throw new Error(JSON.stringify(listed.error));
    expect((listed.value as { data: { name: string }[] }).data.map((k) => k.name)).toContain('laptop');
  });

  it('carries a multipart body as files with their bytes, and refuses a file answer, which cannot cross', async () => {
    const ds = await ipcMain.call({ operation: 'datasets.create', input: { name: 'Over IPC' } });
    if (!ds.ok) throw new Error(JSON.stringify(ds.error));
    const kb = (ds.value as { kb_id: string }).kb_id;
    const bytes = new TextEncoder().encode('tide tables');
    const stored = await ipcMain.call({ operation: 'artifacts.upload', input: { kb_id: kb, files: [{ filename: 'tides.txt', mime_type: 'text/plain', bytes: bytes.buffer }] } });
    if (!stored.ok) throw new Error(JSON.stringify(stored.error));
    expect((stored.value as { data: Array<{ key: string; size: number }> }).data).toEqual([expect.objectContaining({ key: 'tides.txt', size: bytes.length })]);
    expect(structuredClone(stored)).toEqual(stored);

    const content = await ipcMain.call({ operation: 'artifacts.content', input: { kb_id: kb, key: 'tides.txt' } });
    expect(expectError(content, 'invalid_argument').detail).toMatch(/answers a file.*artifacts\.link/);
  });

  it('answers only plain data, which survives structured cloning across IPC', async () => {
    const good = await ipcMain.call({ operation: 'identity.me' });
    const bad = await ipcMain.call({ operation: 'nope' });
    expect(structuredClone(good)).toEqual(good);
    expect(structuredClone(bad)).toEqual(bad);
    expect(bad).not.toHaveProperty('error.stack');
  });

  it.each([
    ['null', null],
    ['a string', 'identity.me'],
    ['an array', ['identity.me']],
    ['no operation', { input: {} }],
    ['a numeric operation', { operation: 42 }],
    ['an empty operation', { operation: '' }],
    ['an unknown key', { operation: 'identity.me', as: 'usr_someoneelse' }],
  ])('refuses %s with invalid_argument', async (_label, payload) => {
    const error = expectError(await ipcMain.call(payload), 'invalid_argument');
    expect(error.status).toBe(400);
  });

  it('names the missing field of a malformed payload', async () => {
    const error = expectError(await ipcMain.call({ input: {} }), 'invalid_argument');
    expect(error.errors?.map((e) => e.path)).toContain('operation');
  });

  it('answers not_found for an operation the registry does not have', async () => {
    const error = expectError(await ipcMain.call({ operation: 'threads.teleport' }), 'not_found');
    expect(error.detail).toContain('threads.teleport');
  });

  it('validates input in main against the registry', async () => {
    const error = expectError(await ipcMain.call({ operation: 'apiKeys.create', input: { name: '' } }), 'invalid_argument');
    expect(error.errors?.map((e) => e.path)).toEqual(['name']);
  });

  it('refuses a sender whose frame is not the app, without running the operation', async () => {
    const invoke = vi.spyOn(core.service, 'invoke');
    expectError(await ipcMain.call({ operation: 'identity.me' }, 'https://evil.example/'), 'forbidden');
    expectError(await ipcMain.call({ operation: 'identity.me' }, 'file:///tmp/index.html'), 'forbidden');
    expectError(await ipcMain.call({ operation: 'identity.me' }, null), 'forbidden');
    expect(invoke).not.toHaveBeenCalled();
  });

  it('removes its handler when disposed', () => {
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(true);
    dispose();
    expect(ipcMain.handlers.has(IPC_INVOKE)).toBe(false);
  });
});

describe('registerIpc with a failing service', () => {
  const owner = () => bootTestCore();

  it('turns a plain Error into internal, logs it, and leaks neither message nor stack', async () => {
    const core = owner();
    const ipcMain = new FakeIpcMain();
    const logError = vi.fn<IpcDeps['logError']>();
    const secret = new Error('ENOENT /home/alice/secret-plans.txt');
    registerIpc({
      ipcMain,
      service: { invoke: () => Promise.reject(secret) },
      desktopCaller: core.desktopCaller,
      isTrustedUrl,
      logError,
    });
    const result = await ipcMain.call({ operation: 'identity.me' });
    const error = expectError(result, 'internal');
    expect(error.status).toBe(500);
    expect(error.detail).toBe(INTERNAL_DETAIL);
    expect(JSON.stringify(result)).not.toContain('secret-plans');
    expect(JSON.stringify(result)).not.toContain('at ');
    expect(logError).toHaveBeenCalledWith(expect.stringContaining('identity.me'), secret);
    core.remove();
  });

  it('keeps the code and detail of a ServiceError, and does not log it', async () => {
    const core = owner();
    const ipcMain = new FakeIpcMain();
    const logError = vi.fn<IpcDeps['logError']>();
    registerIpc({
      ipcMain,
      service: { invoke: () => Promise.reject(new ServiceError('conflict', 'That name is taken.')) },
      desktopCaller: core.desktopCaller,
      isTrustedUrl,
      logError,
    });
    const error = expectError(await ipcMain.call({ operation: 'identity.me' }), 'conflict');
    expect(error).toMatchObject({ status: 409, detail: 'That name is taken.', title: 'Conflict' });
    expect(logError).not.toHaveBeenCalled();
    core.remove();
  });

  it('answers internal when the desktop profile cannot be resolved', async () => {
    const core = owner();
    const ipcMain = new FakeIpcMain();
    const logError = vi.fn<IpcDeps['logError']>();
    registerIpc({
      ipcMain,
      service: core.service,
      desktopCaller: () => {
        throw new Error('the desktop profile has no user');
      },
      isTrustedUrl,
      logError,
    });
    expectError(await ipcMain.call({ operation: 'identity.me' }), 'internal');
    expect(logError).toHaveBeenCalledOnce();
    core.remove();
  });
});
