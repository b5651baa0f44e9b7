import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script with no types; its exports are checked by these tests.
import { openerFor, openInBrowser, SIGN_IN_LINE } from '../../../scripts/open-browser.mjs';

type Opener = { command: string; args: string[]; verbatim?: boolean } | null;
const opener = openerFor as (url: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv) => Opener;
const open = openInBrowser as (url: string, options: { platform: NodeJS.Platform; env: NodeJS.ProcessEnv; spawn: (command: string, args: string[], options: object) => EventEmitter & { unref(): void } }) => boolean;

const URL_ = 'http://127.0.0.1:4317/#/sign-in/abc_DEF-123';

function fakeSpawn(fail?: 'throws' | 'emits') {
  const calls: { command: string; args: string[]; options: object }[] = [];
  const spawn = (command: string, args: string[], options: object) => {
    if (fail === 'throws') throw new Error('spawn EACCES');
    calls.push({ command, args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => {} });
    // As Node reports a missing program: an 'error' event after spawn returned.
    if (fail === 'emits') queueMicrotask(() => child.emit('error', Object.assign(new Error('spawn xdg-open ENOENT'), { code: 'ENOENT' })));
    return child;
  };
  return { calls, spawn };
}

describe('scripts/open-browser.mjs', () => {
  it('uses the platform opener: open on macOS, start on Windows, xdg-open in a Linux desktop session', () => {
    expect(opener(URL_, 'darwin', {})).toEqual({ command: 'open', args: [URL_] });
    expect(opener(URL_, 'win32', {})).toEqual({ command: 'cmd', args: ['/c', 'start', '""', '/b', URL_], verbatim: true });
    expect(opener('http://x/?a=1&b=2', 'win32', {})?.args.at(-1)).toBe('http://x/?a=1^&b=2');
    expect(opener(URL_, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [URL_] });
    expect(opener(URL_, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({ command: 'xdg-open', args: [URL_] });
  });

  it('opens nothing without a desktop session on Linux, or with BROWSER=none', () => {
    expect(opener(URL_, 'linux', {})).toBeNull();
    expect(opener(URL_, 'darwin', { BROWSER: 'none' })).toBeNull();
    const { calls, spawn } = fakeSpawn();
    expect(open(URL_, { platform: 'linux', env: {}, spawn })).toBe(false);
    expect(calls).toEqual([]);
  });

  it('starts the opener detached, and never fails when it cannot be run', async () => {
    const ok = fakeSpawn();
    expect(open(URL_, { platform: 'linux', env: { DISPLAY: ':0' }, spawn: ok.spawn })).toBe(true);
    expect(ok.calls).toEqual([{ command: 'xdg-open', args: [URL_], options: expect.objectContaining({ detached: true, stdio: 'ignore' }) }]);
    expect(open(URL_, { platform: 'linux', env: { DISPLAY: ':0' }, spawn: fakeSpawn('throws').spawn })).toBe(false);
    // A missing xdg-open is an 'error' event: it must not become an uncaught exception.
    expect(open(URL_, { platform: 'linux', env: { DISPLAY: ':0' }, spawn: fakeSpawn('emits').spawn })).toBe(true);
    await new Promise<void>((resolve) => queueMicrotask(resolve));
  });

  it('recognises the line served mode prints', () => {
    expect((SIGN_IN_LINE as RegExp).exec(`Parley listening on http://127.0.0.1:4317\nSign in: ${URL_}\n`)?.[1]).toBe(URL_);
  });
});
