import { homedir } from 'node:os';
import { join } from 'node:path';

/** The app's name as Electron sees it (package.json `name`): the last part of its `userData` path. */
export const APP_NAME = 'parley';

/**
 * Where Electron keeps `userData` for this app on each platform. Served mode uses the same place,
 * so `npm start` falling back to served mode opens the desktop app's data, not another database.
 */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_NAME);
}
