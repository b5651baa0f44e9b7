import type { LogError } from '../transport/ipc/error-payload.js';

/**
 * The renderer is served from `app://parley/`, a custom scheme registered as standard and secure
 * (see app-protocol.ts), rather than with `loadFile`: it gives the page a real origin, so CSP
 * `'self'`, `isAppUrl` and the IPC sender check mean "our files" — under file:// every file on the
 * disk shares one origin, and a navigation to any local HTML would pass for our own page.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'parley';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * The same policy served mode sends with the renderer: only our own code, no plugins, no framing.
 * `connect` adds origins the page may fetch from: the local HTTP API, whose signed upload URLs the
 * page PUTs file parts to.
 */
export function contentSecurityPolicy(connect: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ["connect-src 'self'", ...connect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * Permissions the page may have. Writing text to the clipboard (a "copy" button) is the only one a
 * chat page needs; camera, location, notifications and the rest are refused.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** True for the app's own pages (`app://parley/...`), whatever the path, query or hash. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    // Node parses unknown schemes with an opaque host (not lower-cased, origin "null"); Chromium
    // treats a standard scheme like http. Comparing protocol and host works under both.
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host.toLowerCase() === APP_HOST;
  } catch {
    return false;
  }
}

/** Links a user may follow out of the app: to the OS browser, never inside the window. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export interface MainWindowOptions {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  webPreferences: {
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    webSecurity: true;
    webviewTag: false;
    preload: string;
  };
}

type Headers = Record<string, string | string[]>;

/** The slices of Electron's `Session`, `WebContents` and `BrowserWindow` the window needs. */
export interface SessionLike {
  webRequest: {
    onHeadersReceived(listener: (details: { responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders: Headers }) => void) => void): void;
  };
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string) => boolean): void;
}

export interface NavigationEventLike {
  preventDefault(): void;
  readonly url?: string;
}

export interface WebContentsLike {
  readonly session: SessionLike;
  on(event: 'will-navigate', listener: (event: NavigationEventLike, url: string) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  show(): void;
}

export interface WindowDeps<W extends BrowserWindowLike> {
  BrowserWindow: new (options: MainWindowOptions) => W;
  shell: { openExternal(url: string): Promise<void> };
  /** The bundled preload (`dist/preload/index.cjs`). */
  preloadPath: string;
  logError: LogError;
  /**
   * The policy the page gets (CONTENT_SECURITY_POLICY unless the local API's origin is allowed too);
   * a function is asked for each response, so a changed API origin applies without a new window.
   */
  policy?: string | (() => string);
}

function withPolicy(headers: Record<string, string[]> | undefined, policy: string): Headers {
  const result: Headers = {};
  // Header names are case-insensitive: drop any policy a response brought, then set ours.
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') result[name] = value;
  }
  result['Content-Security-Policy'] = [policy];
  return result;
}

/** Creates the main window, locked down: isolated sandboxed renderer, CSP, no navigation away, no popups. */
export function createMainWindow<W extends BrowserWindowLike>(deps: WindowDeps<W>): W {
  const win = new deps.BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    title: 'Parley',
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, preload: deps.preloadPath },
  });
  const contents = win.webContents;
  const openOutside = (url: string) => {
    if (!isExternalWebUrl(url)) return;
    deps.shell.openExternal(url).catch((error: unknown) => deps.logError(`Could not open ${url} in the browser`, error));
  };

  // webRequest never sees app:// responses (Electron runs its header hooks for http(s) only), so
  // app-protocol.ts sets the same header itself; this covers anything else the page might load.
  const policy = deps.policy ?? CONTENT_SECURITY_POLICY;
  contents.session.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withPolicy(details.responseHeaders, typeof policy === 'function' ? policy() : policy) }),
  );
  contents.session.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isAppUrl(details.requestingUrl ?? ''));
  });
  contents.session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => ALLOWED_PERMISSIONS.has(permission) && isAppUrl(requestingOrigin));

  contents.on('will-navigate', (event, url) => {
    const target = event.url ?? url;
    if (isAppUrl(target)) return;
    event.preventDefault();
    openOutside(target);
  });
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });

  win.once('ready-to-show', () => win.show());
  win.loadURL(APP_ENTRY_URL).catch((error: unknown) => deps.logError('The Parley window could not load its page', error));
  return win;
}
