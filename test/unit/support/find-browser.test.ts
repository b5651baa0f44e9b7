import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findBrowser, type FindBrowserOptions } from '../../support/find-browser.js';
import { tempDir } from '../../support/core.js';

function executable(file: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
  return file;
}

/**
 * A machine with no browser: an empty PATH directory, a fake HOME with no Playwright cache, no
 * usual install paths, Linux. Installers are the injected `run`, which records what it was asked.
 */
function bareMachine(extraEnv: NodeJS.ProcessEnv = {}) {
  const { dir, remove } = tempDir('parley-find-browser-');
  const home = join(dir, 'home');
  const bin = join(dir, 'bin');
  mkdirSync(home);
  mkdirSync(bin);
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: home, ...extraEnv };
  const lines: string[] = [];
  const commands: string[] = [];
  const options = (more: Partial<FindBrowserOptions> = {}): FindBrowserOptions => ({
    env,
    platform: 'linux',
    knownPaths: [join(dir, 'usr', 'bin', 'chromium')],
    log: (line) => lines.push(line),
    canReachPlaywright: async () => false,
    isRootOnDebian: () => false,
    run: (command, args) => {
      commands.push([command, ...args].join(' '));
      return { status: 1, stderr: 'E: nothing here', error: undefined };
    },
    ...more,
  });
  return { dir, home, bin, env, lines, commands, options, remove };
}

describe('the e2e browser discovery', () => {
  let machine: ReturnType<typeof bareMachine>;
  afterEach(() => machine.remove());

  it('with no browser anywhere and installing turned off, answers one line saying where it looked and what to do', async () => {
    machine = bareMachine({ PARLEY_BROWSER_INSTALL: '0' });
    const found = await findBrowser(machine.options());
    expect('problem' in found).toBe(true);
    const problem = 'problem' in found ? found.problem : '';
    expect(problem).not.toContain('\n');
    expect(problem).toMatch(/^No Chromium for the e2e tests: none on the PATH \(chromium, /);
    expect(problem).toContain(join(machine.home, '.cache', 'ms-playwright'));
    expect(problem).toContain('installing one is turned off (PARLEY_BROWSER_INSTALL=0)');
    expect(problem).toMatch(/set PARLEY_CHROMIUM/);
    expect(machine.commands).toEqual([]);
    expect(machine.lines).toEqual([]);
  });

  it('finds a Chromium on the PATH first', async () => {
    machine = bareMachine();
    const chromium = executable(join(machine.bin, 'chromium'));
    executable(join(machine.dir, 'usr', 'bin', 'chromium'));
    expect(await findBrowser(machine.options())).toEqual({ path: chromium, source: 'PATH' });
  });

  it('finds Chrome at a usual path when the PATH has none', async () => {
    machine = bareMachine();
    const usual = executable(join(machine.dir, 'usr', 'bin', 'chromium'));
    expect(await findBrowser(machine.options())).toEqual({ path: usual, source: 'usual path' });
  });

  it("finds the newest full Chromium in Playwright's cache before a headless shell", async () => {
    machine = bareMachine();
    const cache = join(machine.home, '.cache', 'ms-playwright');
    executable(join(cache, 'chromium-1200', 'chrome-linux64', 'chrome'));
    const newest = executable(join(cache, 'chromium-1255', 'chrome-linux64', 'chrome'));
    executable(join(cache, 'chromium_headless_shell-1300', 'chrome-headless-shell-linux64', 'chrome-headless-shell'));
    expect(await findBrowser(machine.options())).toEqual({ path: newest, source: "Playwright's cache" });
  });

  it('takes PARLEY_CHROMIUM as given, and says so when it is not an executable', async () => {
    machine = bareMachine();
    const mine = executable(join(machine.dir, 'my-chrome'));
    executable(join(machine.bin, 'chromium'));
    machine.env.PARLEY_CHROMIUM = mine;
    expect(await findBrowser(machine.options())).toEqual({ path: mine, source: 'PARLEY_CHROMIUM' });
    machine.env.PARLEY_CHROMIUM = join(machine.dir, 'missing');
    expect(await findBrowser(machine.options())).toEqual({ problem: `PARLEY_CHROMIUM is set to ${join(machine.dir, 'missing')}, which is not an executable file.` });
  });

  it("installs Playwright's Chromium where its download answers, saying so in one line", async () => {
    machine = bareMachine();
    const cache = join(machine.home, '.cache', 'ms-playwright');
    const found = await findBrowser(
      machine.options({
        canReachPlaywright: async () => true,
        run: (command, args) => {
          machine.commands.push(args.slice(1).join(' '));
          executable(join(cache, 'chromium-1255', 'chrome-linux64', 'chrome'));
          return { status: 0, stderr: '', error: undefined };
        },
      }),
    );
    expect(found).toEqual({ path: join(cache, 'chromium-1255', 'chrome-linux64', 'chrome'), source: "Playwright's cache (installed now)" });
    expect(machine.commands).toEqual(['install chromium']);
    expect(machine.lines).toEqual(["No Chromium found for the e2e tests; installing Playwright's (npx playwright-core install chromium)…"]);
  });

  it("installs Debian's Chromium with apt-get as root on Debian when Playwright's download does not answer", async () => {
    machine = bareMachine();
    const usual = join(machine.dir, 'usr', 'bin', 'chromium');
    const found = await findBrowser(
      machine.options({
        isRootOnDebian: () => true,
        run: (command, args, env) => {
          machine.commands.push(`${env.DEBIAN_FRONTEND} ${command} ${args.join(' ')}`);
          if (args[0] === 'install') executable(usual);
          return { status: 0, stderr: '', error: undefined };
        },
      }),
    );
    expect(found).toEqual({ path: usual, source: 'apt-get (installed now)' });
    expect(machine.commands).toEqual(['noninteractive apt-get update -qq', 'noninteractive apt-get install -y -qq chromium']);
    expect(machine.lines).toEqual(["No Chromium found for the e2e tests; installing Debian's (apt-get install -y chromium)…"]);
  });

  it('says why each way of installing failed, in one line', async () => {
    machine = bareMachine();
    const found = await findBrowser(machine.options({ isRootOnDebian: () => true }));
    const problem = 'problem' in found ? found.problem : '';
    expect(problem).not.toContain('\n');
    expect(problem).toContain("Playwright's download server did not answer; apt-get install chromium failed (E: nothing here)");
  });
});
