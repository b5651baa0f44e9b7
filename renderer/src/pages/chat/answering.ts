import { useSyncExternalStore } from 'react';

/**
 * The threads whose answer this window is following now, shown or not: the thread list marks them
 * "answering…", so an answer left to end in the background is still seen to be under way.
 * Counted per thread, since a thread left and opened again follows its answer twice for a while.
 */
const following = new Map<string, number>();
let snapshot: ReadonlySet<string> = new Set();
const listeners = new Set<() => void>();

function changed(): void {
  snapshot = new Set(following.keys());
  listeners.forEach((listener) => listener());
}

/** Marks `threadId` answering until the returned function is called (once; later calls do nothing). */
export function markAnswering(threadId: string): () => void {
  following.set(threadId, (following.get(threadId) ?? 0) + 1);
  changed();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (following.get(threadId) ?? 1) - 1;
    if (left > 0) following.set(threadId, left);
    else following.delete(threadId);
    changed();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The threads answering now, re-rendering as they start and end. */
export function useAnsweringThreads(): ReadonlySet<string> {
  return useSyncExternalStore(subscribe, () => snapshot);
}
