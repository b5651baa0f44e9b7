import type { Logger } from '../core/platform/logger.js';
import { utilityProcessHost, type UtilityProcessLike } from './model-host.js';
import { bootCore, type BootOptions, type Core } from '../boot.js';
import { keyFileSecretBox, osKeychainSecretBox, type OsKeychain } from '../core/platform/secrets/secret-box.js';
import { registerIpc, type IpcMainInvokeLike } from '../transport/ipc/index.js';
import { registerUploadParts } from '../transport/ipc/upload-part.js';
import { registerFolderPicker, type FolderDialogLike } from '../transport/ipc/pick-folder.js';
import { registerStreams, type IpcMainOnLike, type MessagePortMainLike, type OpenStream } from '../transport/ipc/stream-port.js';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol.js';
import { superviseLocalApi } from './local-api.js';
import { APP_SCHEME, CONTENT_SECURITY_POLICY, contentSecurityPolicy, createMainWindow, isAppUrl, type BrowserWindowLike, type MainWindowOptions } from './window.js';
import { errorText } from '../../shared/errors.js';

/** The slice of Electron's `app` the lifecycle needs; one overload per event, as Electron types them. */
export interface AppLike {
  requestSingleInstanceLock(): boolean;
  whenReady(): Promise<unknown>;
  getPath(name: 'userData'): string;
  quit(): void;
  exit(code?: number): void;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'will-quit', listener: (event: { preventDefault(): void }) => void): unknown;
}

export interface DesktopWindow extends BrowserWindowLike {
  isDestroyed(): boolean;
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
}

/** What runDesktop takes from the `electron` module: injected, so tests run under plain Node. */
export interface ElectronLike<W extends DesktopWindow, P extends MessagePortMainLike> {
  app: AppLike;
  BrowserWindow: new (options: MainWindowOptions) => W;
  ipcMain: IpcMainInvokeLike & IpcMainOnLike<P>;
  MessageChannelMain: new () => { port1: P; port2: P };
  protocol: {
    registerSchemesAsPrivileged(schemes: (typeof APP_SCHEME_PRIVILEGES)[]): void;
    handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
  };
  shell: { openExternal(url: string): Promise<void> };
  dialog: { showErrorBox(title: string, content: string): void } & FolderDialogLike;
  /** Encrypts provider keys with the OS keychain where the platform has one. */
  safeStorage?: OsKeychain & { isEncryptionAvailable(): boolean };
  /** Runs the local models in a process of their own (a child Node process when absent). */
  utilityProcess?: UtilityProcessLike;
}

export interface RunningHttp {
  url: string;
  close(): Promise<void>;
}

/** The app's one logger, also the core's (pino, see main/electron.ts). */
export type DesktopLog = Logger;

export interface DesktopOptions {
  env: Readonly<Record<string, string | undefined>>;
  appVersion: string;
  platform: NodeJS.Platform;
  /** The built renderer (`dist/renderer`), served as `app://parley/`. */
  rendererDir: string;
  /** The bundled preload (`dist/preload/index.cjs`). */
  preloadPath: string;
  /** The models the package carries (`<resources>/models`): the embedding model of a fresh install. */
  bundledModelsDir?: string | undefined;
  /** The streaming side of the registry; by default the core's own `service.stream` (tests inject one). */
  openStream?: OpenStream;
  /** Serves the API on loopback; injected so that this file never loads the HTTP framework. */
  startHttp: (core: Core) => Promise<RunningHttp>;
  log: DesktopLog;
  /** SIGINT/SIGTERM (Ctrl-C in `npm start`) quit through the same clean path as closing the window. */
  signals?: { on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): unknown };
  boot?: (options: BootOptions) => Core;
}

export interface DesktopHandle<W> {
  core: Core;
  window(): W | undefined;
  /** Resolves once the local API matches `[server]` as configured now (started, stopped or failed). */
  localApiSettled(): Promise<void>;
  /** Stops IPC and HTTP and closes the database; what `will-quit` runs. Idempotent. */
  shutdown(): Promise<void>;
}

/**
 * The local HTTP API's origins, which the page may reach: uploads PUT file parts to its signed URLs.
 * Where it listens now, and where the configuration says it will (known before the server starts,
 * or restarts on a new port; a configured port of 0 is only known once it listens). Read for each
 * page load, so a reload after a change of `[server]` gets the new origin.
 */
export function localApiOrigins(core: Pick<Core, 'config'> & { runtime?: Pick<Core['runtime'], 'baseUrl'> }): string[] {
  const origins: string[] = [];
  const listening = core.runtime?.baseUrl();
  if (listening) origins.push(new URL(listening).origin);
  const { enabled, host, port } = core.config().server;
  if (enabled && port !== 0) origins.push(`http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  return [...new Set(origins)];
}

/**
 * Streams over IPC are the service's streams, as over SSE. The service validates, authorizes and
 * starts the work before the first event; a renderer closing its port stops the watching (the
 * iterator is returned), never the work behind it: `chat.cancel` does that.
 */
function streamsOf(core: Core): OpenStream {
  return (operation, input, caller) => core.service.stream(operation, input, caller);
}

/**
 * The desktop app's lifecycle: one instance, core booted on the data directory, IPC, the window,
 * and the loopback API when `[server] enabled`. Resolves to null when this process should not run
 * (another instance has the lock, or the core could not boot — the user has been told why).
 */
export async function runDesktop<W extends DesktopWindow, P extends MessagePortMainLike>(
  electron: ElectronLike<W, P>,
  options: DesktopOptions,
): Promise<DesktopHandle<W> | null> {
  const { app, dialog, protocol } = electron;
  const { env, log } = options;
  // A second instance would open the same database and race the first for the HTTP port.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  // Schemes must be privileged before the app is ready; later it is an error.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

  let win: W | undefined;
  let ready = false;
  let policy = () => CONTENT_SECURITY_POLICY;
  const showWindow = () => {
    if (!win || win.isDestroyed()) {
      win = createMainWindow({ BrowserWindow: electron.BrowserWindow, shell: electron.shell, preloadPath: options.preloadPath, logError: log.error, policy });
      return;
    }
    if (win.isMinimized()) win.restore();
    win.focus();
  };
  // Launching Parley again brings this window forward instead.
  app.on('second-instance', () => {
    if (ready) showWindow();
  });

  await app.whenReady();

  const dataDir = env.PARLEY_DATA_DIR || app.getPath('userData');
  let core: Core;
  try {
    core = (options.boot ?? bootCore)({
      dataDir,
      appVersion: options.appVersion,
      adminApiKey: env.PARLEY_ADMIN_API_KEY || undefined,
      mode: 'desktop',
      bundledModelsDir: options.bundledModelsDir,
      nativeBinding: env.PARLEY_SQLITE_BINDING || undefined,
      localModelHost: electron.utilityProcess ? utilityProcessHost(electron.utilityProcess) : undefined,
      secretBox: electron.safeStorage?.isEncryptionAvailable() ? osKeychainSecretBox(electron.safeStorage, keyFileSecretBox(dataDir)) : undefined,
      log,
    });
  } catch (error) {
    log.error('Parley could not open its data directory', error);
    dialog.showErrorBox('Parley could not start', `${errorText(error)}\n\nData directory: ${dataDir}`);
    app.exit(1);
    return null;
  }

  const booted = core;
  policy = () => contentSecurityPolicy(localApiOrigins(booted));
  protocol.handle(APP_SCHEME, createAppProtocolHandler(options.rendererDir, policy));
  const trusted = { desktopCaller: core.desktopCaller, isTrustedUrl: isAppUrl, logError: log.error };
  const disposers = [
    registerIpc({ ipcMain: electron.ipcMain, service: core.service, ...trusted }),
    registerStreams({ ipcMain: electron.ipcMain, MessageChannelMain: electron.MessageChannelMain, openStream: options.openStream ?? streamsOf(core), ...trusted }),
    registerUploadParts({ ipcMain: electron.ipcMain, service: core.service, ...trusted }),
    registerFolderPicker({ ipcMain: electron.ipcMain, dialog, ...trusted }),
  ];
  ready = true;
  showWindow();

  // The window does not wait for the API: a busy port costs local clients, not the desktop user.
  // It follows `[server]` as saved: a change of enabled/host/port restarts it at once.
  const localApi = superviseLocalApi(core, options.startHttp, log);

  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> =>
    (stopping ??= (async () => {
      for (const dispose of disposers) dispose();
      // Awaiting a start under way too: a quit during start-up must not leave the port open.
      await localApi.stop();
      await core.close();
    })());

  let stopped = false;
  // Electron does not wait for promises: hold the quit, clean up, then quit for real.
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    void shutdown().finally(() => {
      stopped = true;
      app.quit();
    });
  });
  // macOS keeps apps running with no window; elsewhere closing the window quits.
  app.on('window-all-closed', () => {
    if (options.platform !== 'darwin') app.quit();
  });
  app.on('activate', showWindow);
  options.signals?.on('SIGINT', () => app.quit());
  options.signals?.on('SIGTERM', () => app.quit());

  return { core, window: () => win, localApiSettled: () => localApi.settled(), shutdown };
}
