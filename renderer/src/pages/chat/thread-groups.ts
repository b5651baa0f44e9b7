/** The date groups of the thread list, newest first, as chat apps show them. */
export type ThreadGroup = 'Today' | 'Yesterday' | 'Previous 7 days' | 'Previous 30 days' | 'Older';

const ORDER: ThreadGroup[] = ['Today', 'Yesterday', 'Previous 7 days', 'Previous 30 days', 'Older'];

/** Which group a thread last active at `iso` falls in, by the reader's local calendar days. */
export function groupOf(iso: string, now: Date): ThreadGroup {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const t = new Date(iso).getTime();
  const day = 24 * 60 * 60 * 1000;
  if (t >= startOfToday) return 'Today';
  if (t >= startOfToday - day) return 'Yesterday';
  if (t >= startOfToday - 7 * day) return 'Previous 7 days';
  if (t >= startOfToday - 30 * day) return 'Previous 30 days';
  return 'Older';
}

/** Threads (already newest first) in their date groups, empty groups left out, order kept. */
export function groupThreads<T extends { updated_at: string }>(threads: readonly T[], now: Date): Array<{ group: ThreadGroup; threads: T[] }> {
  const groups = new Map<ThreadGroup, T[]>();
  for (const thread of threads) {
    const group = groupOf(thread.updated_at, now);
    groups.set(group, [...(groups.get(group) ?? []), thread]);
  }
  return ORDER.filter((g) => groups.has(g)).map((group) => ({ group, threads: groups.get(group) ?? [] }));
}
