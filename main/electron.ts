// The desktop entry, and the only file that imports electron at run time: everything it wires is
// injected into runDesktop, so the rest of main/ is tested under plain Node.
import { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, protocol, safeStorage, shell } from 'electron';
import { join } from 'node:path';
import { APP_ROOT, APP_VERSION } from './app-info.js';
import { runDesktop } from './desktop/app.js';

const log = {
  info: (message: string) => console.info(message),
  warn: (message: string) => console.warn(`warning: ${message}`),
  error: (message: string, error?: unknown) => console.error(message, error ?? ''),
};

runDesktop(
  { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, protocol, safeStorage, shell },
  {
    env: process.env,
    appVersion: APP_VERSION,
    platform: process.platform,
    rendererDir: join(APP_ROOT, 'dist', 'renderer'),
    preloadPath: join(APP_ROOT, 'dist', 'preload', 'index.cjs'),
    // Loaded on demand so that desktop/app.ts (and its tests) never load the HTTP framework.
    startHttp: async (core) => {
      const { startHttpServer } = await import('./transport/http/server.js');
      const { port, host } = core.config().server;
      return startHttpServer(core, { port, host, appVersion: APP_VERSION });
    },
    log,
    signals: process,
  },
).catch((error: unknown) => {
  log.error('Parley could not start', error);
  app.exit(1);
});
