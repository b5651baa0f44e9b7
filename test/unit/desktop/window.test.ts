import { beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_ENTRY_URL, CONTENT_SECURITY_POLICY, createMainWindow, isAppUrl } from '../../../main/desktop/window.js';
import type { LogError } from '../../../main/transport/ipc/error-payload.js';
import { FakeBrowserWindow } from './fake-electron.js';

function open() {
  const shell = { openExternal: vi.fn((_url: string) => Promise.resolve()) };
  const logError = vi.fn<LogError>();
  const win = createMainWindow({ BrowserWindow: FakeBrowserWindow, shell, preloadPath: '/app/dist/preload/index.cjs', logError });
  return { win, shell, logError, contents: win.webContents, session: win.webContents.session };
}

describe('isAppUrl', () => {
  it.each(['app://parley/index.html', 'app://parley/', 'app://parley/index.html#/threads/thr_1', 'app://PARLEY/assets/x.js?v=1'])('accepts %s', (url) => {
    expect(isAppUrl(url)).toBe(true);
  });
  it.each([
    'https://parley/',
    'http://127.0.0.1:4317/',
    'file:///home/me/dist/renderer/index.html',
    'app://evil/index.html',
    'app://parley.evil.example/',
    'app://parley:8080/',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });
});

describe('createMainWindow', () => {
  beforeEach(() => {
    FakeBrowserWindow.created.length = 0;
  });

  it('isolates and sandboxes the renderer, with the preload and no Node', () => {
    const { win } = open();
    expect(win.options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: '/app/dist/preload/index.cjs',
    });
  });

  it('loads the app page and shows the window once it is ready', () => {
    const { win } = open();
    expect(win.loaded).toEqual([APP_ENTRY_URL]);
    expect(win.options.show).toBe(false);
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
  });

  it('sets the strict CSP on every response, replacing any policy the response brought', () => {
    const { session } = open();
    const listener = session.headersListener;
    if (!listener) throw new Error('no onHeadersReceived listener');
    let answered: Record<string, string | string[]> | undefined;
    listener({ responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ["script-src 'unsafe-eval' *"] } }, (r) => {
      answered = r.responseHeaders;
    });
    expect(answered).toEqual({ 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    listener({}, (r) => {
      answered = r.responseHeaders;
    });
    expect(answered).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  it('uses the agreed policy', () => {
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'none'",
    ]) {
      expect(CONTENT_SECURITY_POLICY.split('; ')).toContain(directive);
    }
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('lets the page navigate within the app, and sends web links to the OS browser instead', () => {
    const { contents, shell } = open();
    expect(contents.navigate('app://parley/index.html#/admin')).toBe(true);
    expect(contents.navigate('https://example.com/docs')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    expect(contents.navigate('app://other/index.html')).toBe(false);
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/docs']]);
  });

  it('denies every new window, opening http(s) links externally and nothing else', () => {
    const { contents, shell } = open();
    const handler = contents.openHandler;
    if (!handler) throw new Error('no window open handler');
    expect(handler({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'app://parley/index.html' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(handler({ url: 'smb://server/share' })).toEqual({ action: 'deny' });
    expect(shell.openExternal.mock.calls).toEqual([['https://example.com/']]);
  });

  it('logs, rather than throws, when the OS browser cannot be opened', async () => {
    const { contents, shell, logError } = open();
    shell.openExternal.mockRejectedValueOnce(new Error('no browser'));
    contents.openHandler?.({ url: 'https://example.com/' });
    await vi.waitFor(() => expect(logError).toHaveBeenCalledOnce());
  });

  it('denies permission requests: camera, location, notifications…', () => {
    const { session } = open();
    const request = session.requestHandler;
    const check = session.checkHandler;
    if (!request || !check) throw new Error('permission handlers not set');
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'hid']) {
      const callback = vi.fn();
      request(null, permission, callback, { requestingUrl: 'app://parley/index.html' });
      expect(callback).toHaveBeenCalledWith(false);
      expect(check(null, permission, 'app://parley')).toBe(false);
    }
  });

  it('allows only clipboard writes, and only to the app itself', () => {
    const { session } = open();
    const callback = vi.fn();
    session.requestHandler?.(null, 'clipboard-sanitized-write', callback, { requestingUrl: 'app://parley/index.html' });
    session.requestHandler?.(null, 'clipboard-sanitized-write', callback, { requestingUrl: 'https://evil.example/' });
    expect(callback.mock.calls).toEqual([[true], [false]]);
    expect(session.checkHandler?.(null, 'clipboard-sanitized-write', 'app://parley')).toBe(true);
    expect(session.checkHandler?.(null, 'clipboard-sanitized-write', 'https://evil.example')).toBe(false);
  });
});
