import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../main/data-dir.js';

describe('defaultDataDir', () => {
  let home: string | undefined;
  afterEach(() => {
    if (home) rmSync(home, { recursive: true, force: true });
    home = undefined;
  });

  it('is where Electron keeps userData for the app on each platform', () => {
    expect(defaultDataDir('linux', {}, '/home/ada')).toBe('/home/ada/.config/parley');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ada')).toBe('/xdg/parley');
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/parley');
    expect(defaultDataDir('win32', { APPDATA: '/c/AppData/Roaming' }, '/c/Users/ada')).toBe('/c/AppData/Roaming/parley');
  });

  it('finds a data directory made under the product name (Parley) where there is no parley, and prefers parley when both exist', () => {
    home = mkdtempSync(join(tmpdir(), 'parley-home-'));
    const former = join(home, '.config', 'Parley');
    mkdirSync(former, { recursive: true });
    expect(defaultDataDir('linux', {}, home)).toBe(former);
    const current = join(home, '.config', 'parley');
    mkdirSync(current);
    expect(defaultDataDir('linux', {}, home)).toBe(current);
  });
});
