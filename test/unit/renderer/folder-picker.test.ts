import { describe, expect, it } from 'vitest';
import type { IpcResult, ParleyBridge } from '../../../shared/bridge.js';
import { ServiceError } from '../../../shared/errors.js';
import { folderPicker } from '../../../renderer/src/api/folder-picker.js';
import { folderName, parseGlobs } from '../../../renderer/src/pages/datasets/folders/folder-format.js';

function desktop(pickFolder?: (title: string) => Promise<IpcResult>): { parley: Partial<ParleyBridge> } {
  return {
    parley: {
      kind: 'desktop',
      invoke: async () => ({ ok: true, value: null }),
      ...(pickFolder ? { pickFolder } : {}),
    },
  };
}

describe('the folder picker (desktop: the system dialog; browser: none, a path field instead)', () => {
  it('is absent in a browser, and with a preload that has no picker', () => {
    expect(folderPicker({})).toBeNull();
    expect(folderPicker(desktop())).toBeNull();
  });

  it('answers the chosen path, or null when the dialog was cancelled', async () => {
    const titles: string[] = [];
    let answer: IpcResult = { ok: true, value: '/home/ann/Notes' };
    const pick = folderPicker(
      desktop(async (title) => {
        titles.push(title);
        return answer;
      }),
    );
    expect(await pick?.('Follow a folder')).toBe('/home/ann/Notes');
    answer = { ok: true, value: null };
    expect(await pick?.('Follow a folder')).toBeNull();
    expect(titles).toEqual(['Follow a folder', 'Follow a folder']);
  });

  it('rejects with the service error main answered', async () => {
    const pick = folderPicker(desktop(async () => ({ ok: false, error: { code: 'forbidden', title: 'Forbidden', detail: 'Only the Parley window may open the folder dialog.', status: 403 } })));
    await expect(pick?.('Follow a folder')).rejects.toSatisfy((e) => e instanceof ServiceError && e.code === 'forbidden');
  });
});

describe('folder words', () => {
  it('names a folder by its last segment, whatever the separator or a trailing one', () => {
    expect(folderName('/home/ann/Notes/')).toBe('Notes');
    expect(folderName('C:\\Users\\ann\\Project docs')).toBe('Project docs');
    expect(folderName('/')).toBe('/');
  });

  it('reads globs separated by commas or lines, blanks dropped', () => {
    expect(parseGlobs(' **/*.md, docs/**\n\n*.txt ,')).toEqual(['**/*.md', 'docs/**', '*.txt']);
    expect(parseGlobs('  ')).toEqual([]);
  });
});
