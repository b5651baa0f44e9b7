import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_INVOKE, IPC_PICK_FOLDER, IPC_STREAM_OPEN, type IpcResult, type StreamMessage } from '../../../shared/bridge.js';
import { bootCore, type BootOptions, type Core } from '../../../main/boot.js';
import { runDesktop, type AppLike, type DesktopHandle, type DesktopOptions, type ElectronLike, type RunningHttp } from '../../../main/desktop/app.js';
import { APP_ENTRY_URL } from '../../../main/desktop/window.js';
import { startHttpServer } from '../../../main/transport/http/server.js';
import type { IpcSenderLike } from '../../../main/transport/ipc/sender.js';
import type { StreamOpenEventLike } from '../../../main/transport/ipc/stream-port.js';
import { tempDir } from '../../support/core.js';
import { FakeBrowserWindow } from './fake-electron.js';

interface QuitEvent {
  preventDefault(): void;
}

/** Electron's `app`, reduced to what the lifecycle touches; `quit()` runs will-quit as Electron does. */
class FakeApp extends EventEmitter implements AppLike {
  hasLock = true;
  quitCalls = 0;
  quitted = false;
  exitCode: number | undefined;
  readyCalled = false;
  privilegedBeforeReady = false;
  constructor(
    readonly userData: string,
    private readonly protocol: FakeProtocol,
  ) {
    super();
  }
  requestSingleInstanceLock(): boolean {
    return this.hasLock;
  }
  whenReady(): Promise<void> {
    this.readyCalled = true;
    this.privilegedBeforeReady = this.protocol.privileged.length > 0;
    return Promise.resolve();
  }
  getPath(name: 'userData'): string {
    if (name !== 'userData') throw new Error(name);
    return this.userData;
  }
  quit(): void {
    this.quitCalls++;
    let prevented = false;
    const event: QuitEvent = { preventDefault: () => (prevented = true) };
    this.emit('will-quit', event);
    if (!prevented) this.quitted = true;
  }
  exit(code?: number): void {
    this.exitCode = code ?? 0;
  }
  override on(event: string, listener: (event: QuitEvent) => void): this {
    return super.on(event, listener);
  }
}

class FakeProtocol {
  readonly privileged: { scheme: string; privileges: Record<string, boolean> }[] = [];
  readonly handlers = new Map<string, (request: Request) => Promise<Response>>();
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]): void {
    this.privileged.push(...schemes);
  }
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    this.handlers.set(scheme, handler);
  }
}

type InvokeListener = (event: IpcSenderLike, ...args: unknown[]) => unknown;
type StreamListener = (event: StreamOpenEventLike<MessagePort>, ...args: unknown[]) => void;

class FakeIpcMain {
  readonly handlers = new Map<string, InvokeListener>();
  readonly listeners = new Map<string, StreamListener>();
  handle(channel: string, listener: InvokeListener): void {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  on(channel: string, listener: StreamListener): void {
    this.listeners.set(channel, listener);
  }
  removeListener(channel: string): void {
    this.listeners.delete(channel);
  }
}

function fakeElectron(userData: string) {
  const protocol = new FakeProtocol();
  const app = new FakeApp(userData, protocol);
  const ipcMain = new FakeIpcMain();
  const dialog = {
    errors: [] as { title: string; content: string }[],
    showErrorBox: (title: string, content: string) => void dialog.errors.push({ title, content }),
    showOpenDialog: () => Promise.resolve({ canceled: false, filePaths: ['/home/ann/Notes'] }),
  };
  const electron: ElectronLike<FakeBrowserWindow, MessagePort> = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain,
    MessageChannelMain: MessageChannel,
    protocol,
    shell: { openExternal: () => Promise.resolve() },
    dialog,
  };
  return { electron, app, ipcMain, protocol, dialog };
}

function fakeHttp() {
  const server = { url: 'http://127.0.0.1:4317', close: vi.fn(() => Promise.resolve()) };
  return { server, startHttp: vi.fn((_core: Core): Promise<RunningHttp> => Promise.resolve(server)) };
}

describe('runDesktop', () => {
  let userData: ReturnType<typeof tempDir>;
  let dataDir: ReturnType<typeof tempDir>;
  let handle: DesktopHandle<FakeBrowserWindow> | null = null;
  const signals = new EventEmitter();
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

  beforeEach(() => {
    userData = tempDir('parley-userdata-');
    dataDir = tempDir('parley-datadir-');
    FakeBrowserWindow.created.length = 0;
    signals.removeAllListeners();
    vi.clearAllMocks();
  });
  afterEach(async () => {
    await handle?.shutdown();
    handle = null;
    userData.remove();
    dataDir.remove();
  });

  function options(overrides: Partial<DesktopOptions> = {}): DesktopOptions {
    return {
      env: { PARLEY_DATA_DIR: dataDir.dir },
      appVersion: '0.0.0-test',
      platform: 'linux',
      rendererDir: '/nowhere/dist/renderer',
      preloadPath: '/app/dist/preload/index.cjs',
      startHttp: fakeHttp().startHttp,
      log,
      signals,
      ...overrides,
    };
  }

  it('boots the core on PARLEY_DATA_DIR, serves IPC as the owner, opens the window and starts HTTP', async () => {
    const { electron, ipcMain, protocol, app } = fakeElectron(userData.dir);
    const http = fakeHttp();
    handle = await runDesktop(electron, options({ startHttp: http.startHttp }));
    if (!handle) throw new Error('did not start');

    expect(handle.core.dataDir).toBe(dataDir.dir);
    expect(app.privilegedBeforeReady).toBe(true);
    expect(protocol.privileged[0]).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true } });
    expect(protocol.handlers.has('app')).toBe(true);

    const invoke = ipcMain.handlers.get(IPC_INVOKE);
    if (!invoke) throw new Error('IPC not registered');
    const me = (await invoke({ senderFrame: { url: APP_ENTRY_URL } }, { operation: 'identity.me' })) as IpcResult;
    expect(me).toMatchObject({ ok: true, value: { user: { role: 'super_admin' } } });
    const foreign = (await invoke({ senderFrame: { url: 'https://evil.example/' } }, { operation: 'identity.me' })) as IpcResult;
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(ipcMain.listeners.has(IPC_STREAM_OPEN)).toBe(true);

    expect(FakeBrowserWindow.created).toHaveLength(1);
    const win = handle.window();
    expect(win?.options.webPreferences.preload).toBe('/app/dist/preload/index.cjs');
    expect(win?.loaded).toEqual([APP_ENTRY_URL]);

    await vi.waitFor(() => expect(http.startHttp).toHaveBeenCalledWith(handle?.core));
  });

  it('opens the system folder dialog for the app’s page only, answering the chosen path or null', async () => {
    const { electron, ipcMain, dialog } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options());
    const pick = ipcMain.handlers.get(IPC_PICK_FOLDER);
    if (!pick) throw new Error('folder picker not registered');
    expect(await pick({ senderFrame: { url: APP_ENTRY_URL } }, 'Follow a folder')).toEqual({ ok: true, value: '/home/ann/Notes' });
    dialog.showOpenDialog = () => Promise.resolve({ canceled: true, filePaths: [] });
    expect(await pick({ senderFrame: { url: APP_ENTRY_URL } }, 'Follow a folder')).toEqual({ ok: true, value: null });
    expect(await pick({ senderFrame: { url: 'https://evil.example/' } }, 'Follow a folder')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('serves the core’s streams over IPC: a chat answer arrives on the port, then end', async () => {
    const { electron, ipcMain } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options());
    const open = ipcMain.listeners.get(IPC_STREAM_OPEN);
    if (!open) throw new Error('streams not registered');
    const openStream = (payload: unknown) =>
      new Promise<StreamMessage[]>((resolve) => {
        const received: StreamMessage[] = [];
        open(
          {
            senderFrame: { url: APP_ENTRY_URL },
            sender: {
              postMessage: (_channel, _message, [port]) => {
                port?.on('message', (m: StreamMessage) => {
                  received.push(m);
                  if (m.type !== 'event') {
                    port.close();
                    resolve(received);
                  }
                });
              },
            },
          },
          payload,
        );
      });

    const chat = await openStream({ stream_id: 'c1', operation: 'chat.send', input: { message: 'Hello there' } });
    const names = chat.flatMap((m) => (m.type === 'event' ? [(m.event as { event: string }).event] : []));
    expect(names[0]).toBe('message.created');
    // The answer's end, then the new thread's title (the built-in model's: the question's key phrase).
    expect(names.slice(-2)).toEqual(['message.completed', 'thread.updated']);
    expect(chat.at(-1)).toEqual({ type: 'end' });

    // An agent's steps come over the same port, as thought events before the text.
    const agentic = await openStream({ stream_id: 'c3', operation: 'chat.send', input: { message: 'Hello there', agentic: true } });
    const events = agentic.flatMap((m) => (m.type === 'event' ? [m.event as { event: string; data: { kind?: string } }] : []));
    expect(events.filter((e) => e.event === 'thought').map((e) => e.data.kind)).toEqual(['plan', 'tool_call', 'observation', 'answer']);
    expect(events.findIndex((e) => e.event === 'thought')).toBeLessThan(events.findIndex((e) => e.event === 'delta'));

    const notStreaming = await openStream({ stream_id: 'c2', operation: 'identity.me' });
    expect(notStreaming).toEqual([{ type: 'error', error: expect.objectContaining({ code: 'invalid_argument' }) }]);
  });

  it('uses the userData directory when PARLEY_DATA_DIR is not set, and passes the Electron sqlite build', async () => {
    const { electron } = fakeElectron(userData.dir);
    let seen: BootOptions | undefined;
    const boot = (o: BootOptions) => {
      seen = o;
      return bootCore({ ...o, nativeBinding: undefined });
    };
    handle = await runDesktop(electron, options({ env: { PARLEY_SQLITE_BINDING: '/cache/electron-sqlite/45.4.1/better_sqlite3.node' }, boot }));
    expect(handle?.core.dataDir).toBe(userData.dir);
    expect(seen?.nativeBinding).toBe('/cache/electron-sqlite/45.4.1/better_sqlite3.node');
  });

  it('does not start HTTP when [server] enabled = false', async () => {
    writeFileSync(join(dataDir.dir, 'parley.toml'), '[server]\nenabled = false\n');
    const { electron } = fakeElectron(userData.dir);
    const http = fakeHttp();
    handle = await runDesktop(electron, options({ startHttp: http.startHttp }));
    expect(handle?.core.config().server.enabled).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(http.startHttp).not.toHaveBeenCalled();
    expect(FakeBrowserWindow.created).toHaveLength(1);
  });

  it('quits cleanly: holds the quit, closes HTTP and the database, removes IPC, then quits', async () => {
    const { electron, app, ipcMain } = fakeElectron(userData.dir);
    const http = fakeHttp();
    handle = await runDesktop(electron, options({ startHttp: http.startHttp }));
    const core = handle?.core;
    app.quit();
    expect(app.quitted).toBe(false);
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(http.server.close).toHaveBeenCalledOnce();
    expect(core?.db.open).toBe(false);
    expect(ipcMain.handlers.size).toBe(0);
    expect(ipcMain.listeners.size).toBe(0);
  });

  it('closes an HTTP server that finishes starting after the quit began', async () => {
    const { electron, app } = fakeElectron(userData.dir);
    const server = { url: 'http://127.0.0.1:4317', close: vi.fn(() => Promise.resolve()) };
    let listening: (s: RunningHttp) => void = () => {};
    const startHttp = () => new Promise<RunningHttp>((resolve) => (listening = resolve));
    handle = await runDesktop(electron, options({ startHttp }));
    app.quit();
    await new Promise((resolve) => setImmediate(resolve));
    expect(app.quitted).toBe(false);
    listening(server);
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(server.close).toHaveBeenCalledOnce();
  });

  it('keeps running without the API when HTTP cannot start, and says why', async () => {
    const { electron, app } = fakeElectron(userData.dir);
    const startHttp = () => Promise.reject(Object.assign(new Error('listen EADDRINUSE 127.0.0.1:4317'), { code: 'EADDRINUSE' }));
    handle = await runDesktop(electron, options({ startHttp }));
    await vi.waitFor(() => expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('EADDRINUSE')));
    expect(FakeBrowserWindow.created).toHaveLength(1);
    app.quit();
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(handle?.core.db.open).toBe(false);
  });

  /** An HTTP API stand-in that listens where the configuration says, as startHttpServer does; some ports are taken. */
  function configuredHttp(taken: number[] = []) {
    const servers: { url: string; close: ReturnType<typeof vi.fn> }[] = [];
    const startHttp = vi.fn((core: Core): Promise<RunningHttp> => {
      const { host, port } = core.config().server;
      if (taken.includes(port)) return Promise.reject(Object.assign(new Error(`listen EADDRINUSE ${host}:${port}`), { code: 'EADDRINUSE' }));
      const url = `http://${host}:${port}`;
      core.runtime.setBaseUrl(url);
      const server = { url, close: vi.fn(() => Promise.resolve(core.runtime.setBaseUrl(null))) };
      servers.push(server);
      return Promise.resolve(server);
    });
    return { servers, startHttp };
  }

  function ipc(ipcMain: FakeIpcMain) {
    const invoke = ipcMain.handlers.get(IPC_INVOKE);
    if (!invoke) throw new Error('IPC not registered');
    return async <T>(operation: string, input: unknown = {}): Promise<T> => {
      const result = (await invoke({ senderFrame: { url: APP_ENTRY_URL } }, { operation, input })) as IpcResult;
      if (!result.ok) throw new Error(`${operation}: ${result.error.code} ${result.error.detail}`);
      return result.value as T;
    };
  }

  it('applies a saved [server] port, host or enabled at once: the API restarts where it says, or stops', async () => {
    const { electron, ipcMain } = fakeElectron(userData.dir);
    const http = configuredHttp();
    handle = await runDesktop(electron, options({ startHttp: http.startHttp }));
    if (!handle) throw new Error('did not start');
    await handle.localApiSettled();
    const call = ipc(ipcMain);
    expect(await call('service.server')).toEqual({ url: 'http://127.0.0.1:4317', enabled: true, port: 4317, mode: 'desktop', problem: null });

    let state = await call<{ version: number; restart_required: string[] }>('admin.config.patch', { values: { 'server.port': 4400 }, base_version: 1 });
    expect(state.restart_required).toEqual([]);
    await handle.localApiSettled();
    expect(http.servers[0]?.close).toHaveBeenCalledOnce();
    expect(http.startHttp).toHaveBeenCalledTimes(2);
    expect(await call('service.server')).toMatchObject({ url: 'http://127.0.0.1:4400', port: 4400 });

    // A change elsewhere leaves the server alone.
    state = await call('admin.config.patch', { values: { 'ui.theme': 'dark' }, base_version: state.version });
    await handle.localApiSettled();
    expect(http.startHttp).toHaveBeenCalledTimes(2);

    state = await call('admin.config.patch', { values: { 'server.enabled': false }, base_version: state.version });
    await handle.localApiSettled();
    expect(http.servers[1]?.close).toHaveBeenCalledOnce();
    expect(http.startHttp).toHaveBeenCalledTimes(2);
    expect(await call('service.server')).toEqual({ url: null, enabled: false, port: 4400, mode: 'desktop', problem: null });

    await call('admin.config.patch', { values: { 'server.enabled': true, 'server.host': 'localhost' }, base_version: state.version });
    await handle.localApiSettled();
    expect(await call('service.server')).toMatchObject({ url: 'http://localhost:4400', enabled: true });
  });

  it('reports a restart that fails (port taken) instead of crashing, and recovers on the next change', async () => {
    const { electron, ipcMain } = fakeElectron(userData.dir);
    const http = configuredHttp([4401]);
    handle = await runDesktop(electron, options({ startHttp: http.startHttp }));
    if (!handle) throw new Error('did not start');
    await handle.localApiSettled();
    const call = ipc(ipcMain);

    const state = await call<{ version: number }>('admin.config.patch', { values: { 'server.port': 4401 }, base_version: 1 });
    await handle.localApiSettled();
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('EADDRINUSE'));
    const failed = await call<{ url: string | null; problem: string | null }>('service.server');
    expect(failed.url).toBeNull();
    expect(failed.problem).toMatch(/4401.*in use/);
    expect((await call<{ server_problem: string | null }>('admin.config.get')).server_problem).toMatch(/in use/);

    await call('admin.config.patch', { values: { 'server.port': 4402 }, base_version: state.version });
    await handle.localApiSettled();
    expect(await call('service.server')).toMatchObject({ url: 'http://127.0.0.1:4402', problem: null });
    expect((await call<{ server_problem: string | null }>('admin.config.get')).server_problem).toBeNull();
  });

  it('answers a change of [server] made over the HTTP API itself before that server restarts', async () => {
    writeFileSync(join(dataDir.dir, 'parley.toml'), '[server]\nport = 0\n');
    const { electron } = fakeElectron(userData.dir);
    const startHttp = (core: Core) => startHttpServer(core, { port: core.config().server.port, host: core.config().server.host, appVersion: 't' });
    handle = await runDesktop(electron, options({ env: { PARLEY_DATA_DIR: dataDir.dir, PARLEY_ADMIN_API_KEY: 'pk_DesktopTestKey0123456789' }, startHttp }));
    if (!handle) throw new Error('did not start');
    await handle.localApiSettled();
    const before = handle.core.runtime.baseUrl();
    if (!before) throw new Error('not listening');
    const headers = { authorization: 'Bearer pk_DesktopTestKey0123456789', 'content-type': 'application/json' };
    const { version } = (await (await fetch(`${before}/api/admin/config`, { headers })).json()) as { version: number };
    const res = await fetch(`${before}/api/admin/config`, { method: 'PATCH', headers, body: JSON.stringify({ values: { 'server.host': 'localhost' }, base_version: version }) });
    expect(res.status).toBe(200);
    await handle.localApiSettled();
    const after = handle.core.runtime.baseUrl();
    expect(after).toMatch(/^http:\/\/localhost:\d+$/);
    const server = (await (await fetch(`${after}/api/server`, { headers })).json()) as { url: string };
    expect(server.url).toBe(after);
    await expect(fetch(`${before}/api/health`)).rejects.toThrow();
  });

  it('gives the page the API origin in force: the CSP is computed for each response', async () => {
    const renderer = tempDir('parley-renderer-');
    writeFileSync(join(renderer.dir, 'index.html'), '<!doctype html>');
    const { electron, ipcMain, protocol } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options({ startHttp: configuredHttp().startHttp, rendererDir: renderer.dir }));
    if (!handle) throw new Error('did not start');
    await handle.localApiSettled();
    const serve = protocol.handlers.get('app');
    const headersListener = handle.window()?.webContents.session.headersListener;
    if (!serve || !headersListener) throw new Error('no policy installed');
    const pagePolicy = async () => (await serve(new Request(APP_ENTRY_URL))).headers.get('content-security-policy') ?? '';
    const headerPolicy = () => {
      let policy = '';
      headersListener({ responseHeaders: {} }, (r) => (policy = String(r.responseHeaders['Content-Security-Policy'])));
      return policy;
    };
    expect(await pagePolicy()).toContain("connect-src 'self' http://127.0.0.1:4317;");

    await ipc(ipcMain)('admin.config.patch', { values: { 'server.port': 4500 }, base_version: 1 });
    await handle.localApiSettled();
    expect(await pagePolicy()).toContain("connect-src 'self' http://127.0.0.1:4500;");
    expect(headerPolicy()).toContain("connect-src 'self' http://127.0.0.1:4500;");
    renderer.remove();
  });

  it('quits through the same clean path on SIGTERM and SIGINT', async () => {
    const { electron, app } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options());
    signals.emit('SIGTERM');
    await vi.waitFor(() => expect(app.quitted).toBe(true));
    expect(handle?.core.db.open).toBe(false);
    expect(signals.listenerCount('SIGINT')).toBe(1);
  });

  it('leaves at once, booting nothing, when another instance holds the lock', async () => {
    const { electron, app } = fakeElectron(userData.dir);
    app.hasLock = false;
    const boot = vi.fn(bootCore);
    handle = await runDesktop(electron, options({ boot }));
    expect(handle).toBeNull();
    expect(app.quitCalls).toBe(1);
    expect(app.readyCalled).toBe(false);
    expect(boot).not.toHaveBeenCalled();
    expect(FakeBrowserWindow.created).toHaveLength(0);
  });

  it('brings the window forward when Parley is launched again, and reopens it on activate', async () => {
    const { electron, app } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options());
    const win = handle?.window();
    if (!win) throw new Error('no window');
    win.minimized = true;
    app.emit('second-instance');
    expect(win.minimized).toBe(false);
    expect(win.focused).toBe(1);
    expect(FakeBrowserWindow.created).toHaveLength(1);
    win.destroyed = true;
    app.emit('activate');
    expect(FakeBrowserWindow.created).toHaveLength(2);
    expect(handle?.window()).not.toBe(win);
  });

  it('quits when the last window closes, except on macOS', async () => {
    const linux = fakeElectron(userData.dir);
    handle = await runDesktop(linux.electron, options());
    linux.app.emit('window-all-closed');
    await vi.waitFor(() => expect(linux.app.quitted).toBe(true));

    const other = tempDir('parley-datadir-');
    const mac = fakeElectron(userData.dir);
    const macHandle = await runDesktop(mac.electron, options({ platform: 'darwin', env: { PARLEY_DATA_DIR: other.dir } }));
    mac.app.emit('window-all-closed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(mac.app.quitCalls).toBe(0);
    await macHandle?.shutdown();
    other.remove();
  });

  it('tells the user and exits when the database is from a newer Parley', async () => {
    mkdirSync(dataDir.dir, { recursive: true });
    const db = new Database(join(dataDir.dir, 'parley.db'));
    db.pragma('user_version = 9999');
    db.close();
    const { electron, app, dialog, ipcMain } = fakeElectron(userData.dir);
    handle = await runDesktop(electron, options());
    expect(handle).toBeNull();
    expect(app.exitCode).toBe(1);
    expect(dialog.errors).toHaveLength(1);
    expect(dialog.errors[0]?.content).toContain('newer version of Parley');
    expect(dialog.errors[0]?.content).toContain(dataDir.dir);
    expect(ipcMain.handlers.size).toBe(0);
    expect(FakeBrowserWindow.created).toHaveLength(0);
  });
});
