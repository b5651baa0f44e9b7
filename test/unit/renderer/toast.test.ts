import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_VISIBLE, toast, useToasts, visibleToasts } from '../../../renderer/src/ui/toast.js';

describe('toasts', () => {
  beforeEach(() => useToasts.setState({ toasts: [] }));

  it('are raised from outside any component, oldest first', () => {
    toast.error('The upload of notes.txt failed', 'Part 1 was refused (HTTP 413).');
    toast.success('Connected again');
    expect(useToasts.getState().toasts.map((t) => [t.tone, t.title, t.detail])).toEqual([
      ['error', 'The upload of notes.txt failed', 'Part 1 was refused (HTTP 413).'],
      ['success', 'Connected again', null],
    ]);
  });

  it('collapses an identical repeat into one toast with a count, moved to the newest place', () => {
    toast.error('Threads could not be refreshed', 'offline');
    toast.success('Connected again');
    toast.error('Threads could not be refreshed', 'offline');
    const { toasts } = useToasts.getState();
    expect(toasts.map((t) => [t.title, t.count])).toEqual([
      ['Connected again', 1],
      ['Threads could not be refreshed', 2],
    ]);
  });

  it('keeps toasts that differ in detail or tone apart', () => {
    toast.error('A file failed', 'a.pdf');
    toast.error('A file failed', 'b.pdf');
    toast.info('A file failed', 'a.pdf');
    expect(useToasts.getState().toasts).toHaveLength(3);
  });

  it('shows the newest four; an older one comes back when one is dismissed, so none is lost unseen', () => {
    const ids = [1, 2, 3, 4, 5, 6].map((n) => toast.error(`Failure ${n}`));
    const titles = () => visibleToasts(useToasts.getState().toasts).map((t) => t.title);
    expect(MAX_VISIBLE).toBe(4);
    expect(titles()).toEqual(['Failure 3', 'Failure 4', 'Failure 5', 'Failure 6']);
    toast.dismiss(ids[5] as number);
    expect(titles()).toEqual(['Failure 2', 'Failure 3', 'Failure 4', 'Failure 5']);
  });

  it('dismisses one toast by its id, the latest id of a repeat included', () => {
    toast.error('First');
    const repeated = toast.error('First');
    const other = toast.error('Second');
    toast.dismiss(repeated);
    expect(useToasts.getState().toasts.map((t) => t.id)).toEqual([other]);
  });
});
