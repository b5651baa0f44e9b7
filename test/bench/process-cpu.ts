/**
 * CPU time of a process and its descendants (Linux /proc), for figures in MB per CPU-second that
 * do not depend on how busy the shared machine is: the process's own user + system time, that of
 * its children already ended (reaped: cutime, cstime), and that of those still running.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second for /proc times (USER_HZ, 100 on Linux everywhere that matters). */
const TICKS = 100;

function stat(pid: number): number[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    return text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);
  } catch {
    return null;
  }
}

function children(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds used so far by `pid` and every descendant, ended or running; null where /proc cannot say. */
export function treeCpuSeconds(pid: number): number | null {
  const own = stat(pid);
  if (!own) return null;
  // After the command name: state(0) … utime(11) stime(12) cutime(13) cstime(14).
  let ticks = (own[11] ?? 0) + (own[12] ?? 0) + (own[13] ?? 0) + (own[14] ?? 0);
  for (const child of children(pid)) ticks += (treeCpuSeconds(child) ?? 0) * TICKS;
  return ticks / TICKS;
}

function rssKb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of `pid` and every running descendant, in MB (a model may run in a child process). */
export function treeRssMb(pid: number): number {
  const kb = (p: number): number => rssKb(p) + children(p).reduce((sum, c) => sum + kb(c), 0);
  return kb(pid) / 1024;
}
