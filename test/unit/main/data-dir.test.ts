import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../main/data-dir.js';

describe('defaultDataDir', () => {
  it('is where Electron keeps userData for the app on each platform', () => {
    expect(defaultDataDir('linux', {}, '/home/ada')).toBe('/home/ada/.config/parley');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ada')).toBe('/xdg/parley');
    expect(defaultDataDir('darwin', {}, '/Users/ada')).toBe('/Users/ada/Library/Application Support/parley');
    expect(defaultDataDir('win32', { APPDATA: '/c/AppData/Roaming' }, '/c/Users/ada')).toBe('/c/AppData/Roaming/parley');
  });
});
