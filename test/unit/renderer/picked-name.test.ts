import { describe, expect, it } from 'vitest';
import { nameAfterPick } from '../../../renderer/src/pages/settings/picked-name.js';

/** Issue 31: a model picked from "List models" left the Name field empty. */
describe('the name of a model picked from the endpoint’s list', () => {
  it('is the picked id when the person has typed no name', () => {
    expect(nameAfterPick('', null, 'gpt-4o-mini')).toBe('gpt-4o-mini');
    expect(nameAfterPick('  ', null, 'echo')).toBe('echo');
  });

  it('follows a second pick, but never replaces a name the person typed', () => {
    expect(nameAfterPick('gpt-4o-mini', 'gpt-4o-mini', 'echo')).toBe('echo');
    expect(nameAfterPick('Team GPT', 'gpt-4o-mini', 'echo')).toBe('Team GPT');
    expect(nameAfterPick('Team GPT', null, 'echo')).toBe('Team GPT');
  });

  it('keeps to the longest name the service accepts', () => {
    expect(nameAfterPick('', null, 'x'.repeat(140))).toHaveLength(100);
  });
});
