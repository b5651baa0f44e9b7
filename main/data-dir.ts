import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The data directory's name, for served mode and the desktop app alike (main/electron.ts sets
 * Electron's `userData` to {@link defaultDataDir}): package.json's `name`, which is what Electron
 * itself used when run from source and what served mode always used, so every data directory made
 * so far already has it.
 */
export const APP_NAME = 'parley';

/**
 * Names a data directory may have been given before the one name was settled: electron-builder's
 * `productName` (Parley), which a packaged app's Electron would have used for `userData`.
 */
const FORMER_NAMES = ['Parley'];

/** The folder each platform keeps applications' settings in (where Electron puts `userData`). */
function settingsRoot(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME || join(home, '.config');
}

/**
 * Where Parley keeps its data by default: `<settings>/parley`. Served mode and the desktop app use
 * the same place, so `npm start` falling back to served mode opens the desktop app's data, not
 * another database. Where there is no `parley` but a directory under a former name exists, that one
 * is used where it is — read in place rather than moved, since another Parley process (served
 * mode, the MCP server) may have its database open. On macOS and Windows, whose file systems
 * ignore case, both names are one directory anyway.
 */
export function defaultDataDir(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  const root = settingsRoot(platform, env, home);
  const dir = join(root, APP_NAME);
  if (existsSync(dir)) return dir;
  return FORMER_NAMES.map((name) => join(root, name)).find((former) => existsSync(former)) ?? dir;
}
