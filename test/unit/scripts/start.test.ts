import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../support/core.js';

const START = join(import.meta.dirname, '..', '..', '..', 'scripts', 'start.mjs');

/**
 * A throwaway project root holding a copy of start.mjs, fake built entries and a fake electron
 * package: start.mjs finds everything relative to itself, so it runs here as in the repo.
 */
function fakeProject() {
  const { dir, remove } = tempDir('parley-start-');
  const write = (path: string, content: string, executable = false) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
    if (executable) chmodSync(join(dir, path), 0o755);
  };
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(START, join(dir, 'scripts', 'start.mjs'));
  for (const helper of ['open-browser.mjs', 'electron-sqlite.mjs']) copyFileSync(join(START, '..', helper), join(dir, 'scripts', helper));
  write('package.json', JSON.stringify({ name: 'parley', main: 'dist/main/electron.js', type: 'module' }));
  write('dist/main/electron.js', '');
  // Served mode stand-in: reports what it was given, exits 7 (or 0 on SIGTERM when asked to wait).
  write(
    'dist/main/serve.js',
    `const report = { argv: process.argv.slice(2), marker: process.env.PARLEY_TEST_MARKER };
     if (process.argv.includes('--wait')) {
       process.on('SIGTERM', () => { console.log('SERVE got SIGTERM'); process.exit(0); });
       setInterval(() => {}, 1000);
     }
     console.log('SERVE ' + JSON.stringify(report));
     if (!process.argv.includes('--wait')) process.exit(7);`,
  );
  // Electron 45's index.js as it behaves here: the fetch fails loudly, then it throws.
  write('node_modules/electron/package.json', JSON.stringify({ name: 'electron', version: '45.4.1', main: 'index.js' }));
  write('node_modules/electron/index.js', "console.log('Downloading Electron binary...'); console.error('RequestError: getaddrinfo ENOTFOUND github.com'); throw new Error('Electron failed to install correctly');");
  return { dir, write, remove };
}

/**
 * A desktop-capable fake project whose better-sqlite3 copy can be fetched or built: a fake Electron
 * binary that prints the binding it was given, and stand-ins for prebuild-install (hoisted, as npm
 * installs it) and node-gyp that append their calls, in order, to calls.jsonl. A stand-in that
 * succeeds leaves `build/Release/better_sqlite3.node` in its cwd, as the real tools do.
 */
function desktopProject(prebuilt: 'fetches' | 'fails', gyp: 'builds' | 'fails') {
  const project = fakeProject();
  project.write('node_modules/electron/path.txt', 'electron');
  project.write('node_modules/electron/dist/electron', `#!${process.execPath}\nconsole.log('ELECTRON ' + process.env.PARLEY_SQLITE_BINDING);\n`, true);
  project.write('node_modules/better-sqlite3/package.json', JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  project.write('node_modules/better-sqlite3/binding.gyp', '{}');
  project.write('node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node build');
  const calls = join(project.dir, 'calls.jsonl');
  const stub = (tool: string, outcome: string, failure: string) =>
    `const fs = require('fs');
     fs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ tool: ${JSON.stringify(tool)}, args: process.argv.slice(2), cwd: process.cwd(), hasPackage: fs.existsSync('package.json'), hasGyp: fs.existsSync('binding.gyp'), nodeBuildCopied: fs.existsSync('build/Release/better_sqlite3.node'), nodedir: process.env.npm_config_nodedir ?? null }) + '\\n');
     ${failure}
     fs.mkdirSync('build/Release', { recursive: true }); fs.writeFileSync('build/Release/better_sqlite3.node', ${JSON.stringify(outcome)});`;
  project.write(
    'node_modules/prebuild-install/bin.js',
    stub('prebuild-install', 'prebuilt electron build', prebuilt === 'fails' ? "console.error('prebuild-install warn install getaddrinfo ENOTFOUND github.com'); process.exit(1);" : ''),
  );
  project.write('fake-node-gyp.cjs', stub('node-gyp', 'electron build', gyp === 'fails' ? "console.error('gyp ERR! no headers'); process.exit(1);" : ''));
  const recorded = () =>
    existsSync(calls)
      ? readFileSync(calls, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { tool: string; args: string[]; cwd: string; hasPackage: boolean; hasGyp: boolean; nodeBuildCopied: boolean; nodedir: string | null })
      : [];
  const env = { npm_config_node_gyp: join(project.dir, 'fake-node-gyp.cjs'), npm_config_nodedir: '/usr' };
  return { ...project, recorded, env, binding: join(project.dir, '.cache', 'electron-sqlite', '45.4.1', 'better_sqlite3.node') };
}

function run(cwd: string, args: string[], env: Record<string, string | undefined> = {}, onStdout?: (text: string, child: ReturnType<typeof spawn>) => void) {
  const childEnv: Record<string, string | undefined> = { ...process.env, PARLEY_TEST_MARKER: 'passed-through', ...env };
  for (const key of ['ELECTRON_SKIP_BINARY_DOWNLOAD', 'PARLEY_SQLITE_BINDING', 'npm_config_node_gyp']) if (!(key in env)) delete childEnv[key];
  const child = spawn(process.execPath, [join(cwd, 'scripts', 'start.mjs'), ...args], { cwd, env: childEnv });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('scripts/start.mjs', () => {
  let project: ReturnType<typeof fakeProject>;
  afterEach(() => project.remove());

  it('says in one line that Electron is unavailable, then runs served mode with argv and env, exiting with its code', async () => {
    project = fakeProject();
    const result = await run(project.dir, ['--port', '0']);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toEqual([
      "Electron's binary is not available here; starting served mode instead.",
      `SERVE ${JSON.stringify({ argv: ['--port', '0'], marker: 'passed-through' })}`,
    ]);
    // The failed fetch's own noise stays hidden.
    expect(result.stderr).not.toContain('ENOTFOUND');
    expect(result.code).toBe(7);
  });

  it("opens served mode's sign-in link in the default browser, once, and passes the output through", async () => {
    project = fakeProject();
    const link = 'http://127.0.0.1:4317/#/sign-in/abc_DEF-123';
    project.write('dist/main/serve.js', `console.log('Parley listening on http://127.0.0.1:4317\\nSign in: ${link}'); console.log('Sign in: ${link}');`);
    // xdg-open stand-in on the PATH: records what it was asked to open.
    const opened = join(project.dir, 'opened.txt');
    project.write('bin/xdg-open', `#!/bin/sh\necho "$@" >> ${opened}\n`, true);
    const result = await run(project.dir, [], { PATH: `${join(project.dir, 'bin')}:${process.env.PATH ?? ''}`, DISPLAY: ':0', BROWSER: undefined });
    expect(result.stdout).toContain(`Sign in: ${link}`);
    expect(result.stdout).toContain('Opening the sign-in link in your browser.');
    await vi.waitFor(() => expect(readFileSync(opened, 'utf8')).toBe(`${link}\n`));
    expect(result.code).toBe(0);
  });

  it('prints the sign-in link without failing where there is no browser to open it', async () => {
    project = fakeProject();
    project.write('dist/main/serve.js', `console.log('Sign in: http://127.0.0.1:4317/#/sign-in/abc');`);
    const result = await run(project.dir, [], { DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    expect(result.stdout).toContain('Sign in: http://127.0.0.1:4317/#/sign-in/abc');
    expect(result.stdout).not.toContain('Opening');
    expect(result.code).toBe(0);
  });

  it('does not try to fetch when ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    project = fakeProject();
    project.write('node_modules/electron/index.js', "require('fs').writeFileSync(__dirname + '/tried', ''); throw new Error('no');");
    const result = await run(project.dir, [], { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
    expect(result.stdout).toContain("Electron's binary is not available here");
    expect(existsSync(join(project.dir, 'node_modules/electron/tried'))).toBe(false);
  });

  it('forwards SIGTERM to the child and exits with its code', async () => {
    project = fakeProject();
    let sent = false;
    const result = await run(project.dir, ['--wait'], {}, (stdout, child) => {
      if (!sent && stdout.includes('SERVE {')) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    expect(result.stdout).toContain('SERVE got SIGTERM');
    expect(result.code).toBe(0);
  });

  it('starts the installed Electron on the app directory with the Electron build of better-sqlite3', async () => {
    project = fakeProject();
    project.write('node_modules/electron/path.txt', 'electron');
    project.write(
      'node_modules/electron/dist/electron',
      `#!${process.execPath}\nconsole.log('ELECTRON ' + JSON.stringify({ argv: process.argv.slice(2), binding: process.env.PARLEY_SQLITE_BINDING }));\nprocess.exit(3);\n`,
      true,
    );
    const binding = join(project.dir, '.cache', 'electron-sqlite', '45.4.1', 'better_sqlite3.node');
    project.write('.cache/electron-sqlite/45.4.1/better_sqlite3.node', 'prebuilt');
    const result = await run(project.dir, ['--inspect-nothing']);
    expect(result.stdout.trim()).toBe(`ELECTRON ${JSON.stringify({ argv: [project.dir, '--inspect-nothing'], binding })}`);
    expect(result.code).toBe(3);
  });

  it("takes better-sqlite3's prebuilt binary for Electron first, on a copy, and does not run node-gyp when it is had", async () => {
    const desktop = desktopProject('fetches', 'builds');
    project = desktop;
    const result = await run(desktop.dir, [], desktop.env);
    expect(result.stdout.trim()).toBe(`ELECTRON ${desktop.binding}`);
    expect(result.stderr.trim()).toBe('Took the prebuilt better-sqlite3 for Electron 45.4.1 (first start only).');
    expect(readFileSync(desktop.binding, 'utf8')).toBe('prebuilt electron build');
    const calls = desktop.recorded();
    expect(calls.map((call) => call.tool)).toEqual(['prebuild-install']);
    expect(calls[0]?.args).toEqual(['--runtime', 'electron', '--target', '45.4.1', '--arch', process.arch]);
    // Run in a throwaway copy of the module (prebuild-install reads its package.json), not in node_modules.
    expect(calls[0]?.cwd.startsWith(desktop.dir)).toBe(false);
    expect(calls[0]?.hasPackage).toBe(true);
    expect(calls[0]?.nodeBuildCopied).toBe(false);
    expect(existsSync(calls[0]?.cwd ?? '')).toBe(false);
    expect(readFileSync(join(desktop.dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'utf8')).toBe('node build');

    // Second start: the cached binary is used, nothing is fetched again.
    await run(desktop.dir, [], desktop.env);
    expect(desktop.recorded()).toHaveLength(1);
  });

  it('builds better-sqlite3 for Electron once, with node-gyp against Electron headers, on a copy, when no prebuilt binary can be had', async () => {
    const desktop = desktopProject('fails', 'builds');
    project = desktop;
    const result = await run(desktop.dir, [], desktop.env);
    expect(result.stdout.trim()).toBe(`ELECTRON ${desktop.binding}`);
    expect(result.stderr.trim()).toBe(
      'No prebuilt better-sqlite3 for Electron 45.4.1 (getaddrinfo ENOTFOUND github.com): building it with node-gyp (first start only; a few minutes; log: .cache/electron-sqlite/45.4.1/build.log)',
    );
    expect(readFileSync(desktop.binding, 'utf8')).toBe('electron build');
    const calls = desktop.recorded();
    expect(calls.map((call) => call.tool)).toEqual(['prebuild-install', 'node-gyp']);
    const gyp = calls[1];
    expect(gyp?.args.slice(0, 4)).toEqual(['rebuild', '--release', '--target=45.4.1', '--dist-url=https://electronjs.org/headers']);
    expect(gyp?.cwd.startsWith(desktop.dir)).toBe(false);
    expect(gyp?.hasGyp).toBe(true);
    expect(gyp?.nodeBuildCopied).toBe(false);
    expect(gyp?.nodedir).toBeNull();
    expect(readFileSync(join(desktop.dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'utf8')).toBe('node build');
    expect(existsSync(gyp?.cwd ?? '')).toBe(false);
    // Both tools' output is kept in the log.
    const log = readFileSync(join(desktop.dir, '.cache/electron-sqlite/45.4.1/build.log'), 'utf8');
    expect(log).toContain('ENOTFOUND github.com');

    // Second start: the cached build is used, neither tool is run again.
    await run(desktop.dir, [], desktop.env);
    expect(desktop.recorded()).toHaveLength(2);
  });

  it('falls back to served mode, in one line, when neither a prebuilt nor a built better-sqlite3 for Electron can be had', async () => {
    const desktop = desktopProject('fails', 'fails');
    project = desktop;
    const result = await run(desktop.dir, [], desktop.env);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^better-sqlite3 could not be built for Electron 45\.4\.1 \(the build failed \(see .*build\.log\)\); starting served mode instead\.$/);
    expect(lines[1]).toMatch(/^SERVE /);
    expect(lines).toHaveLength(2);
    expect(desktop.recorded().map((call) => call.tool)).toEqual(['prebuild-install', 'node-gyp']);
    expect(readFileSync(join(desktop.dir, '.cache/electron-sqlite/45.4.1/build.log'), 'utf8')).toContain('no headers');
    expect(result.code).toBe(7);
  });
});
