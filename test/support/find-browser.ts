import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Chromium the e2e tests drive, or the one-line reason there is none. */
export type BrowserFound = { path: string; source: string } | { problem: string };

/** Names a Chromium or Chrome goes by on a PATH, most likely first. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** Where packages and installers put one, per platform, when it is not on the PATH. */
export function usualPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  switch (platform) {
    case 'darwin':
      return [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        join(env.HOME ?? homedir(), 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
      ];
    case 'win32': {
      const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => !!root);
      return roots.flatMap((root) => [join(root, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(root, 'Chromium', 'Application', 'chrome.exe')]);
    }
    default:
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium', '/usr/bin/google-chrome', '/opt/google/chrome/chrome'];
  }
}

/** Playwright's own browser cache, as playwright-core computes it (PLAYWRIGHT_BROWSERS_PATH wins). */
export function playwrightCache(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const custom = env.PLAYWRIGHT_BROWSERS_PATH;
  if (custom && custom !== '0') return custom;
  const home = env.HOME ?? env.USERPROFILE ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'ms-playwright');
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'ms-playwright');
}

/** Executables inside one of Playwright's `chromium-<rev>` or `chromium_headless_shell-<rev>` folders. */
const CACHE_EXECUTABLES = [
  ['chrome-linux64', 'chrome'],
  ['chrome-linux', 'chrome'],
  ['chrome-linux-arm64', 'chrome'],
  ['chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
  ['chrome-mac-x64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'],
  ['chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'],
  ['chrome-win64', 'chrome.exe'],
  ['chrome-win', 'chrome.exe'],
  ['chrome-headless-shell-linux64', 'chrome-headless-shell'],
  ['chrome-headless-shell-linux-arm64', 'chrome-headless-shell'],
  ['chrome-headless-shell-mac-arm64', 'chrome-headless-shell'],
  ['chrome-headless-shell-mac-x64', 'chrome-headless-shell'],
  ['chrome-headless-shell-win64', 'chrome-headless-shell.exe'],
];

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  const names = platform === 'win32' ? PATH_NAMES.map((name) => `${name}.exe`) : PATH_NAMES;
  for (const name of names) for (const dir of dirs) if (isExecutable(join(dir, name), platform)) return join(dir, name);
  return undefined;
}

/** The newest Chromium in Playwright's cache: full Chromium before the headless shell. */
function inCache(cache: string, platform: NodeJS.Platform): string | undefined {
  let entries: string[];
  try {
    entries = readdirSync(cache);
  } catch {
    return undefined;
  }
  const revision = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? -1);
  const ranked = entries
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(a.includes('headless')) - Number(b.includes('headless')) || revision(b) - revision(a));
  for (const dir of ranked) {
    for (const parts of CACHE_EXECUTABLES) {
      const file = join(cache, dir, ...parts);
      if (isExecutable(file, platform)) return file;
    }
  }
  return undefined;
}

export interface FindBrowserOptions {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Fixed places to look after the PATH; `usualPaths(platform)` by default. */
  knownPaths?: string[];
  /** Where one line says what is being installed. */
  log?: (line: string) => void;
  /** Runs an installer; spawnSync by default. */
  run?: (command: string, args: string[], env: NodeJS.ProcessEnv) => Pick<SpawnSyncReturns<string>, 'status' | 'stderr' | 'error'>;
  /** Whether Playwright's download server answers; probed over HTTPS by default. */
  canReachPlaywright?: (env: NodeJS.ProcessEnv) => Promise<boolean>;
  /** Root on Debian, where `apt-get install chromium` gives Debian's Chromium. */
  isRootOnDebian?: () => boolean;
}

const PLAYWRIGHT_CLI = fileURLToPath(new URL('../../node_modules/playwright-core/cli.js', import.meta.url));

function defaultRun(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return spawnSync(command, args, { env, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], timeout: 15 * 60_000 });
}

async function defaultCanReachPlaywright(env: NodeJS.ProcessEnv): Promise<boolean> {
  const host = env.PLAYWRIGHT_DOWNLOAD_HOST ?? 'https://cdn.playwright.dev';
  try {
    await fetch(host, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

function defaultIsRootOnDebian(): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    // Debian itself: Ubuntu's `chromium` package is a snap stub that does not work in containers.
    return /^ID=debian$/m.test(readFileSync('/etc/os-release', 'utf8'));
  } catch {
    return false;
  }
}

function lastLine(text: string | null | undefined): string {
  return (text ?? '').trim().split('\n').pop()?.trim() ?? '';
}

/**
 * Finds a Chromium for the e2e tests: `PARLEY_CHROMIUM`, then the PATH, the usual install paths and
 * Playwright's cache; failing those, installs one the ecosystem's way — Playwright's own where its
 * download answers, Debian's with apt-get where we are root on Debian — unless
 * `PARLEY_BROWSER_INSTALL=0`. Answers the path, or one line saying why there is none.
 */
export async function findBrowser(options: FindBrowserOptions = {}): Promise<BrowserFound> {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const log = options.log ?? (() => {});
  const run = options.run ?? defaultRun;

  const chosen = env.PARLEY_CHROMIUM;
  if (chosen) {
    return isExecutable(chosen, platform) ? { path: chosen, source: 'PARLEY_CHROMIUM' } : { problem: `PARLEY_CHROMIUM is set to ${chosen}, which is not an executable file.` };
  }
  const cache = playwrightCache(platform, env);
  const look = (): { path: string; source: string } | undefined => {
    const fromPath = onPath(env, platform);
    if (fromPath) return { path: fromPath, source: 'PATH' };
    const known = (options.knownPaths ?? usualPaths(platform, env)).find((file) => isExecutable(file, platform));
    if (known) return { path: known, source: 'usual path' };
    const cached = inCache(cache, platform);
    if (cached) return { path: cached, source: "Playwright's cache" };
    return undefined;
  };
  const found = look();
  if (found) return found;

  const nowhere = `No Chromium for the e2e tests: none on the PATH (${PATH_NAMES.join(', ')}), at the usual paths or in Playwright's cache (${cache}), and PARLEY_CHROMIUM is not set`;
  const remedy = 'install Chromium (Debian: apt-get install chromium; elsewhere: npx playwright-core install chromium) or set PARLEY_CHROMIUM to its executable.';
  if (env.PARLEY_BROWSER_INSTALL === '0') return { problem: `${nowhere}; installing one is turned off (PARLEY_BROWSER_INSTALL=0): ${remedy}` };

  const rootOnDebian = (options.isRootOnDebian ?? defaultIsRootOnDebian)();
  const failures: string[] = [];
  if (await (options.canReachPlaywright ?? defaultCanReachPlaywright)(env)) {
    // As root on Debian, --with-deps also installs the system libraries Playwright's build needs.
    const args = [PLAYWRIGHT_CLI, 'install', ...(rootOnDebian ? ['--with-deps'] : []), 'chromium'];
    log(`No Chromium found for the e2e tests; installing Playwright's (npx playwright-core install ${rootOnDebian ? '--with-deps ' : ''}chromium)…`);
    const result = run(process.execPath, args, env);
    const installed = result.status === 0 ? inCache(cache, platform) : undefined;
    if (installed) return { path: installed, source: "Playwright's cache (installed now)" };
    failures.push(`playwright install failed (${lastLine(result.stderr) || result.error?.message || `exit ${result.status}`})`);
  } else {
    failures.push("Playwright's download server did not answer");
  }
  if (rootOnDebian) {
    log("No Chromium found for the e2e tests; installing Debian's (apt-get install -y chromium)…");
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const updated = run('apt-get', ['update', '-qq'], aptEnv);
    const result = updated.status === 0 ? run('apt-get', ['install', '-y', '-qq', 'chromium'], aptEnv) : updated;
    const installed = result.status === 0 ? look() : undefined;
    if (installed) return { path: installed.path, source: 'apt-get (installed now)' };
    failures.push(`apt-get install chromium failed (${lastLine(result.stderr) || result.error?.message || `exit ${result.status}`})`);
  } else {
    failures.push('apt-get needs root on Debian');
  }
  return { problem: `${nowhere}; ${failures.join('; ')}: ${remedy}` };
}
