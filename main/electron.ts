// The desktop entry, and the only file that imports electron at run time: everything it wires is
// injected into runDesktop, so the rest of main/ is tested under plain Node.
import { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, protocol, safeStorage, shell, utilityProcess } from 'electron';
import { join } from 'node:path';
import { APP_ROOT, APP_VERSION } from './app-info.js';
import { defaultDataDir } from './data-dir.js';
import { bundledModelsDir } from './launch/packaged-paths.js';
import { runDesktop } from './desktop/app.js';
import { createLogger } from './logging/logger.js';
import { pinoCoreLogger } from './logging/core-logger.js';

// The data directory served mode uses too (data-dir.ts): left to itself a packaged app's Electron
// would name it after productName (Parley), and run from source after package.json's name (parley).
// Set before anything reads userData: the single-instance lock and the logger below do.
app.setPath('userData', defaultDataDir());

// One logger for the app and its core: <data-dir>/logs/parley.log (rotated) and stderr, secrets redacted.
// userData is known before the app is ready.
const log = pinoCoreLogger(createLogger({ dataDir: process.env.PARLEY_DATA_DIR || app.getPath('userData') }).logger);

runDesktop(
  { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, protocol, safeStorage, shell, utilityProcess },
  {
    env: process.env,
    appVersion: APP_VERSION,
    platform: process.platform,
    rendererDir: join(APP_ROOT, 'dist', 'renderer'),
    preloadPath: join(APP_ROOT, 'dist', 'preload', 'index.cjs'),
    // electron-builder's extraResources (build/bundled-models, filled by npm run dist); a run from source has none.
    bundledModelsDir: app.isPackaged ? bundledModelsDir(process.resourcesPath) : undefined,
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
