import { describe, expect, it } from 'vitest';
import { freeName, withFreeNames } from '../../../renderer/src/pages/chat/attachment-names.js';

describe('names of files attached to a chat', () => {
  it('stay as they are unless the thread holds one by that name: then " (2)" goes before the extension', () => {
    expect(freeName('notes.md', new Set(['other.md']))).toBe('notes.md');
    expect(freeName('notes.md', new Set(['notes.md', 'notes (2).md']))).toBe('notes (3).md');
    expect(freeName('README', new Set(['README']))).toBe('README (2)');
    expect(freeName('   ', new Set())).toBe('file');
  });

  it('are free among the files attached together too, and a renamed file keeps its bytes and type', async () => {
    const files = withFreeNames([new File(['one'], 'a.md', { type: 'text/markdown' }), new File(['two'], 'a.md', { type: 'text/markdown' })], new Set(['a.md']));
    expect(files.map((f) => f.name)).toEqual(['a (2).md', 'a (3).md']);
    expect(await files[1]?.text()).toBe('two');
    expect(files[1]?.type).toBe('text/markdown');
  });
});
