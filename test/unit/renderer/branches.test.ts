import { describe, expect, it } from 'vitest';
import { ROOT, shownBranch } from '../../../renderer/src/pages/chat/branches.js';
import { draftAnswer, type Message } from '../../../renderer/src/pages/chat/types.js';

const msg = (id: string, parent: string | null, role: Message['role'] = 'user'): Message => ({ ...draftAnswer('thr_1', id, parent), role, content: id, status: 'complete' });
const ids = (shown: ReturnType<typeof shownBranch>) => shown.map((s) => s.message.id);

describe('shownBranch', () => {
  // q1 → a1, regenerated as a1b; the reader then went on from a1 (q2 → a2): a2 is the newest.
  const thread = [msg('q1', null), msg('a1', 'q1', 'assistant'), msg('a1b', 'q1', 'assistant'), msg('q2', 'a1'), msg('a2', 'q2', 'assistant')];

  it('shows a straight thread whole, each message the only version', () => {
    const straight = [msg('q1', null), msg('a1', 'q1', 'assistant'), msg('q2', 'a1'), msg('a2', 'q2', 'assistant')];
    const shown = shownBranch(straight);
    expect(ids(shown)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(shown.every((s) => s.versions.length === 1)).toBe(true);
  });

  it('by default follows the versions that lead to the newest message, not the newest version', () => {
    const shown = shownBranch(thread);
    expect(ids(shown)).toEqual(['q1', 'a1', 'q2', 'a2']);
    expect(shown[1]).toMatchObject({ version: 0, versions: ['a1', 'a1b'], fork: 'q1' });
  });

  it('a choice at a fork shows that version and the branch under it only', () => {
    const shown = shownBranch(thread, new Map([['q1', 'a1b']]));
    expect(ids(shown)).toEqual(['q1', 'a1b']);
    expect(shown[1]).toMatchObject({ version: 1, versions: ['a1', 'a1b'] });
  });

  it('an edited first question is a fork at the root, with its own answer', () => {
    const edited = [msg('q1', null), msg('a1', 'q1', 'assistant'), msg('q1b', null), msg('a1c', 'q1b', 'assistant')];
    expect(ids(shownBranch(edited))).toEqual(['q1b', 'a1c']);
    const back = shownBranch(edited, new Map([[ROOT, 'q1']]));
    expect(ids(back)).toEqual(['q1', 'a1']);
    expect(back[0]).toMatchObject({ version: 0, versions: ['q1', 'q1b'], fork: ROOT });
  });

  it('ignores a choice that is not a version at that fork', () => {
    expect(ids(shownBranch(thread, new Map([['q1', 'q2']])))).toEqual(['q1', 'a1', 'q2', 'a2']);
  });
});
