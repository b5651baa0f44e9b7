// `npm start` (after `npm run build`): the desktop app where Electron's binary exists, served mode
// where it does not. Electron needs better-sqlite3 for its own ABI; that binary is made once per
// Electron version under .cache/ (electron-sqlite.mjs) and handed over in PARLEY_SQLITE_BINDING,
// so the Node build in node_modules stays as it is for tests and served mode.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronSqlite } from './electron-sqlite.mjs';
import { openInBrowser, SIGN_IN_LINE } from './open-browser.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');
const ARGS = process.argv.slice(2);

/** The Electron executable if it is on disk (what `require('electron')` would return, without fetching). */
function installedElectron() {
  try {
    const relativePath = readFileSync(join(ELECTRON_DIR, 'path.txt'), 'utf8').trim();
    const dist = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(ELECTRON_DIR, 'dist');
    const binary = join(dist, relativePath);
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Electron 45 fetches its binary the first time `require('electron')` runs. That happens in a
 * child process, its output kept back: where the fetch cannot work, one line from us says so.
 */
function electronBinary() {
  const installed = installedElectron();
  if (installed) return installed;
  const skip = process.env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  if ((skip && skip !== '0' && skip !== 'false') || !existsSync(join(ELECTRON_DIR, 'package.json'))) return undefined;
  const tty = process.stderr.isTTY;
  if (tty) process.stderr.write("Fetching Electron's binary (first start only)…");
  const fetched = spawnSync(process.execPath, ['-e', "require('electron')"], { cwd: ROOT, stdio: 'ignore', timeout: 15 * 60_000 });
  if (tty) process.stderr.write('\r\x1b[K');
  return fetched.status === 0 ? installedElectron() : undefined;
}

/**
 * Runs the child in the foreground: signals are passed on, and its exit is ours. With `onOutput`,
 * its stdout is passed through and also handed over as it comes.
 */
function runForeground(command, args, env, onOutput) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['inherit', onOutput ? 'pipe' : 'inherit', 'inherit'] });
  if (onOutput) {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      // Only the start of the output matters (the ready lines); later output is not kept.
      if (seen.length < 64 * 1024) onOutput((seen += chunk.toString()));
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  child.on('error', (error) => {
    process.stderr.write(`Could not start ${command}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1)));
}

function serve(reason) {
  process.stdout.write(`${reason}; starting served mode instead.\n`);
  let opened = false;
  runForeground(process.execPath, [join(ROOT, 'dist', 'main', 'serve.js'), ...ARGS], process.env, (output) => {
    const link = !opened && SIGN_IN_LINE.exec(output)?.[1];
    if (!link) return;
    opened = true;
    if (openInBrowser(link)) process.stdout.write('Opening the sign-in link in your browser.\n');
  });
}

function main() {
  for (const entry of ['electron.js', 'serve.js']) {
    if (!existsSync(join(ROOT, 'dist', 'main', entry))) {
      process.stderr.write(`dist/main/${entry} is missing: run npm run build first.\n`);
      process.exit(1);
    }
  }
  const electron = electronBinary();
  if (!electron) return serve("Electron's binary is not available here");

  const version = JSON.parse(readFileSync(join(ELECTRON_DIR, 'package.json'), 'utf8')).version;
  let binding = process.env.PARLEY_SQLITE_BINDING;
  if (!binding) {
    try {
      binding = electronSqlite(ROOT, version);
    } catch (error) {
      return serve(`better-sqlite3 could not be built for Electron ${version} (${error.message})`);
    }
  }
  const env = { ...process.env, PARLEY_SQLITE_BINDING: binding };
  // Would make Electron behave as plain Node and ignore the app.
  delete env.ELECTRON_RUN_AS_NODE;
  // The app directory rather than dist/main/electron.js itself: Electron then reads package.json
  // (its `main` is that file) and takes the app's name from it, so userData is …/parley, not …/Electron.
  runForeground(electron, [ROOT, ...ARGS], env);
}

main();
