import type { MessageId } from '../../i18n/catalogues/index.js';

/** The date groups of the thread list, newest first, as chat apps show them. */
export type ThreadGroup = 'today' | 'yesterday' | 'previous7Days' | 'previous30Days' | 'older';

const ORDER: ThreadGroup[] = ['today', 'yesterday', 'previous7Days', 'previous30Days', 'older'];

/** Each group's heading in the catalogue ("Today", "Yesterday", …). */
export const GROUP_TITLE: Record<ThreadGroup, MessageId> = {
  today: 'chat.threads.group.today',
  yesterday: 'chat.threads.group.yesterday',
  previous7Days: 'chat.threads.group.previous7Days',
  previous30Days: 'chat.threads.group.previous30Days',
  older: 'chat.threads.group.older',
};

/** Which group a thread last active at `iso` falls in, by the reader's local calendar days. */
export function groupOf(iso: string, now: Date): ThreadGroup {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const t = new Date(iso).getTime();
  const day = 24 * 60 * 60 * 1000;
  if (t >= startOfToday) return 'today';
  if (t >= startOfToday - day) return 'yesterday';
  if (t >= startOfToday - 7 * day) return 'previous7Days';
  if (t >= startOfToday - 30 * day) return 'previous30Days';
  return 'older';
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
