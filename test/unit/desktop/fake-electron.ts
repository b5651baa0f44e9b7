import { EventEmitter } from 'node:events';
import type { MainWindowOptions, NavigationEventLike, SessionLike, WebContentsLike } from '../../../main/desktop/window.js';
import type { DesktopWindow } from '../../../main/desktop/app.js';

type HeadersListener = Parameters<SessionLike['webRequest']['onHeadersReceived']>[0];
type RequestHandler = Parameters<SessionLike['setPermissionRequestHandler']>[0];
type CheckHandler = Parameters<SessionLike['setPermissionCheckHandler']>[0];
type OpenHandler = Parameters<WebContentsLike['setWindowOpenHandler']>[0];

/** A session that keeps the handlers it is given, so tests can call them as Chromium would. */
export class FakeSession implements SessionLike {
  headersListener: HeadersListener | undefined;
  requestHandler: RequestHandler | undefined;
  checkHandler: CheckHandler | undefined;
  webRequest = {
    onHeadersReceived: (listener: HeadersListener) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: RequestHandler): void {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: CheckHandler): void {
    this.checkHandler = handler;
  }
}

export class FakeWebContents extends EventEmitter implements WebContentsLike {
  readonly session = new FakeSession();
  openHandler: OpenHandler | undefined;
  setWindowOpenHandler(handler: OpenHandler): void {
    this.openHandler = handler;
  }
  /** A navigation as Chromium announces it; true when the listener let it happen. */
  navigate(url: string): boolean {
    let prevented = false;
    const event: NavigationEventLike = { url, preventDefault: () => (prevented = true) };
    this.emit('will-navigate', event, url);
    return !prevented;
  }
}

/** BrowserWindow stand-in: every instance and the options it was built with are kept. */
export class FakeBrowserWindow extends EventEmitter implements DesktopWindow {
  static readonly created: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  shown = false;
  destroyed = false;
  minimized = false;
  focused = 0;

  constructor(readonly options: MainWindowOptions) {
    super();
    FakeBrowserWindow.created.push(this);
  }
  loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    return Promise.resolve();
  }
  show(): void {
    this.shown = true;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  restore(): void {
    this.minimized = false;
  }
  focus(): void {
    this.focused++;
  }
}
