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
  copyFileSync(join(START, '..', 'open-browser.mjs'), join(dir, 'scripts', 'open-browser.mjs'));
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

  it('builds better-sqlite3 for Electron once, with node-gyp against Electron headers, on a copy', async () => {
    project = fakeProject();
    project.write('node_modules/electron/path.txt', 'electron');
    project.write('node_modules/electron/dist/electron', `#!${process.execPath}\nconsole.log('ELECTRON ' + process.env.PARLEY_SQLITE_BINDING);\n`, true);
    project.write('node_modules/better-sqlite3/binding.gyp', '{}');
    project.write('node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'node build');
    // node-gyp stand-in: records how it was run, and "builds" into build/Release of its cwd.
    project.write(
      'fake-node-gyp.cjs',
      `const fs = require('fs'); const path = require('path');
       fs.writeFileSync(${JSON.stringify(join(project.dir, 'gyp-call.json'))}, JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), hasGyp: fs.existsSync('binding.gyp'), nodeBuildCopied: fs.existsSync('build/Release/better_sqlite3.node'), nodedir: process.env.npm_config_nodedir ?? null }));
       fs.mkdirSync('build/Release', { recursive: true }); fs.writeFileSync('build/Release/better_sqlite3.node', 'electron build');`,
    );
    const env = { npm_config_node_gyp: join(project.dir, 'fake-node-gyp.cjs'), npm_config_nodedir: '/usr' };
    const result = await run(project.dir, [], env);
    const binding = join(project.dir, '.cache', 'electron-sqlite', '45.4.1', 'better_sqlite3.node');
    expect(result.stdout.trim()).toBe(`ELECTRON ${binding}`);
    expect(readFileSync(binding, 'utf8')).toBe('electron build');
    const call = JSON.parse(readFileSync(join(project.dir, 'gyp-call.json'), 'utf8')) as { args: string[]; cwd: string; hasGyp: boolean; nodeBuildCopied: boolean; nodedir: string | null };
    expect(call.args.slice(0, 4)).toEqual(['rebuild', '--release', '--target=45.4.1', '--dist-url=https://electronjs.org/headers']);
    expect(call.cwd.startsWith(project.dir)).toBe(false);
    expect(call.hasGyp).toBe(true);
    expect(call.nodeBuildCopied).toBe(false);
    expect(call.nodedir).toBeNull();
    expect(readFileSync(join(project.dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'utf8')).toBe('node build');
    expect(existsSync(call.cwd)).toBe(false);

    // Second start: the cached build is used, node-gyp is not run again.
    project.write('gyp-call.json', 'unchanged');
    await run(project.dir, [], env);
    expect(readFileSync(join(project.dir, 'gyp-call.json'), 'utf8')).toBe('unchanged');
  });

  it('falls back to served mode, in one line, when the Electron build of better-sqlite3 fails', async () => {
    project = fakeProject();
    project.write('node_modules/electron/path.txt', 'electron');
    project.write('node_modules/electron/dist/electron', `#!${process.execPath}\nconsole.log('ELECTRON');\n`, true);
    project.write('node_modules/better-sqlite3/binding.gyp', '{}');
    project.write('fake-node-gyp.cjs', "console.error('gyp ERR! no headers'); process.exit(1);");
    const result = await run(project.dir, [], { npm_config_node_gyp: join(project.dir, 'fake-node-gyp.cjs') });
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^better-sqlite3 could not be built for Electron 45\.4\.1 \(the build failed \(see .*build\.log\)\); starting served mode instead\.$/);
    expect(lines[1]).toMatch(/^SERVE /);
    expect(readFileSync(join(project.dir, '.cache/electron-sqlite/45.4.1/build.log'), 'utf8')).toContain('no headers');
    expect(result.code).toBe(7);
  });
});
