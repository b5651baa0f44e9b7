// `npm start` (after `npm run build`): the desktop app where Electron's binary exists, served mode
// where it does not. Electron needs better-sqlite3 built for its own ABI; that build is made once
// per Electron version under .cache/ and handed over in PARLEY_SQLITE_BINDING, so the Node build
// in node_modules stays as it is for tests and served mode.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openInBrowser, SIGN_IN_LINE } from './open-browser.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON_DIR = join(ROOT, 'node_modules', 'electron');
const SQLITE_DIR = join(ROOT, 'node_modules', 'better-sqlite3');
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

/** npm's own node-gyp (npm passes its path to scripts), else the one in node_modules. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(ROOT, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((file) => file && existsSync(file));
}

/**
 * better-sqlite3 compiled against Electron's headers, built once per Electron version. The build
 * runs on a copy, so node_modules keeps its Node build. Returns the path, or throws with the log.
 */
function electronSqlite(version) {
  const dir = join(ROOT, '.cache', 'electron-sqlite', version);
  const target = join(dir, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  const gyp = nodeGyp();
  if (!gyp) throw new Error('node-gyp was not found (it ships with npm)');
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'build.log');
  const work = mkdtempSync(join(tmpdir(), 'parley-electron-sqlite-'));
  try {
    const nodeBuild = join(SQLITE_DIR, 'build');
    cpSync(SQLITE_DIR, work, { recursive: true, filter: (file) => file !== nodeBuild && !file.startsWith(nodeBuild + sep) });
    process.stderr.write(`Building better-sqlite3 for Electron ${version} (first start only; a few minutes; log: ${relative(ROOT, log)})\n`);
    // npm exports its config to scripts; a `nodedir` there would build against Node's headers.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key)));
    const out = openSync(log, 'w');
    let built;
    try {
      built = spawnSync(
        process.execPath,
        [gyp, 'rebuild', '--release', `--target=${version}`, '--dist-url=https://electronjs.org/headers', `--devdir=${join(ROOT, '.cache', 'electron-gyp')}`],
        { cwd: work, env, stdio: ['ignore', out, out] },
      );
    } finally {
      closeSync(out);
    }
    const binary = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (built.status !== 0 || !existsSync(binary)) throw new Error(`the build failed (see ${relative(ROOT, log)})`);
    // Copied under a temporary name and renamed: an interrupted copy never passes for a build.
    copyFileSync(binary, `${target}.tmp`);
    renameSync(`${target}.tmp`, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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
      binding = electronSqlite(version);
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
