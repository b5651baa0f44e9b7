// better-sqlite3 for Electron's ABI, for `npm start` from source (scripts/start.mjs): made once per
// Electron version under .cache/electron-sqlite/, from the module's prebuilt binary where one can
// be had (what `npm run dist` takes too, docs/packaging.md), else compiled with node-gyp against
// Electron's headers. Both run on a copy of the module, so node_modules keeps its Node build.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

/** npm's own node-gyp (npm passes its path to scripts), else the one in node_modules. */
function nodeGyp(root) {
  const candidates = [
    process.env.npm_config_node_gyp,
    join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
    join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ];
  return candidates.find((file) => file && existsSync(file));
}

/** The prebuild-install that better-sqlite3 depends on: nested under it, or hoisted. */
function prebuildInstall(root) {
  const candidates = [
    join(root, 'node_modules', 'better-sqlite3', 'node_modules', 'prebuild-install', 'bin.js'),
    join(root, 'node_modules', 'prebuild-install', 'bin.js'),
  ];
  return candidates.find((file) => existsSync(file));
}

/**
 * npm exports its config to scripts: a `nodedir` there would build against Node's headers, a
 * `target` or `runtime` would fetch or build for Node. The `npm_package_*` origin is Parley's, which
 * prebuild-install would take for better-sqlite3's (a git origin makes it skip the download).
 */
function toolEnv() {
  const dropped = /^(npm_config_(nodedir|target|runtime|disturl|dist_url)|npm_package_(from|resolved))$/i;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !dropped.test(key)));
}

/** What prebuild-install said last (its reason for failing), without its own prefix. */
function lastWords(output) {
  const line = output.trim().split('\n').pop()?.trim() ?? '';
  return line.replace(/^prebuild-install (warn|info|ERR!) \S+ /, '').slice(0, 200) || 'it failed';
}

/**
 * Fetches the prebuilt binary into `work`. Returns undefined when it is there, else why not. Its
 * output goes to the log: on failure, only its last line is shown.
 */
function fetchPrebuilt(root, version, work, env, log) {
  const script = prebuildInstall(root);
  if (!script) return 'prebuild-install was not found';
  const tty = process.stderr.isTTY;
  if (tty) process.stderr.write(`Looking for a prebuilt better-sqlite3 for Electron ${version}…`);
  const fetched = spawnSync(process.execPath, [script, '--runtime', 'electron', '--target', version, '--arch', process.arch], {
    cwd: work,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 5 * 60_000,
  });
  if (tty) process.stderr.write('\r\x1b[K');
  const output = `${fetched.stdout ?? ''}${fetched.stderr ?? ''}`;
  writeFileSync(log, `$ prebuild-install --runtime electron --target ${version} --arch ${process.arch}\n${output}\n`);
  if (fetched.error) return fetched.error.message;
  if (fetched.status !== 0) return lastWords(output);
  return existsSync(join(work, 'build', 'Release', 'better_sqlite3.node')) ? undefined : 'it left no better_sqlite3.node';
}

/** Compiles in `work` against Electron's headers (fetched from electronjs.org); throws when it fails. */
function compile(root, version, work, env, log) {
  const gyp = nodeGyp(root);
  if (!gyp) throw new Error('node-gyp was not found (it ships with npm)');
  const out = openSync(log, 'a');
  let built;
  try {
    built = spawnSync(
      process.execPath,
      [gyp, 'rebuild', '--release', `--target=${version}`, '--dist-url=https://electronjs.org/headers', `--devdir=${join(root, '.cache', 'electron-gyp')}`],
      { cwd: work, env, stdio: ['ignore', out, out] },
    );
  } finally {
    closeSync(out);
  }
  if (built.status !== 0 || !existsSync(join(work, 'build', 'Release', 'better_sqlite3.node'))) {
    throw new Error(`the build failed (see ${relative(root, log)})`);
  }
}

/**
 * The path of better-sqlite3 built for Electron `version`, made on the first call. Says in one
 * line (on stderr) whether it took the prebuilt binary or compiles; throws when neither works.
 */
export function electronSqlite(root, version) {
  const dir = join(root, '.cache', 'electron-sqlite', version);
  const target = join(dir, 'better_sqlite3.node');
  if (existsSync(target)) return target;
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'build.log');
  const sqliteDir = join(root, 'node_modules', 'better-sqlite3');
  const work = mkdtempSync(join(tmpdir(), 'parley-electron-sqlite-'));
  try {
    const nodeBuild = join(sqliteDir, 'build');
    cpSync(sqliteDir, work, { recursive: true, filter: (file) => file !== nodeBuild && !file.startsWith(nodeBuild + sep) });
    const env = toolEnv();
    const missing = fetchPrebuilt(root, version, work, env, log);
    if (missing === undefined) {
      process.stderr.write(`Took the prebuilt better-sqlite3 for Electron ${version} (first start only).\n`);
    } else {
      process.stderr.write(
        `No prebuilt better-sqlite3 for Electron ${version} (${missing}): building it with node-gyp (first start only; a few minutes; log: ${relative(root, log)})\n`,
      );
      compile(root, version, work, env, log);
    }
    // Copied under a temporary name and renamed: an interrupted copy never passes for a build.
    copyFileSync(join(work, 'build', 'Release', 'better_sqlite3.node'), `${target}.tmp`);
    renameSync(`${target}.tmp`, target);
    return target;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
