/**
 * Several Parley instances on one database (issue 33): each has a row with a heartbeat; one silent
 * for longer than the lease, or whose process is gone from this very host, is presumed dead and its
 * row goes, which frees its claims (migration 300). Background work is claimed one piece at a time
 * (`WorkClaims`); every heartbeat, a server claims what nobody live holds (a dead instance's files,
 * embeddings, downloads, folders) and marks answers whose writer is gone interrupted.
 *
 * Clocks: heartbeats are compared with this instance's clock, so instances' clocks must agree to
 * well within the lease (NTP does); a lease of a minute leaves room for a paused process too.
 */
import { hostname } from 'node:os';
import type { ClaimKind, InstanceRecord, InstancesRepo } from '../../../db/repositories/instances.js';
import type { Logger } from '../logger.js';

export interface InstanceTiming {
  /** How often an instance says it is alive and looks for work nobody live holds. */
  heartbeatMs: number;
  /** How long an instance may stay silent before the others take over its work. */
  leaseMs: number;
}

export const DEFAULT_INSTANCE_TIMING: InstanceTiming = { heartbeatMs: 10_000, leaseMs: 60_000 };

/**
 * PARLEY_INSTANCE_HEARTBEAT_MS and PARLEY_INSTANCE_LEASE_MS, where set and sound (whole
 * milliseconds, the lease at least three heartbeats, so one late heartbeat is no death); the
 * defaults otherwise, saying why.
 */
export function instanceTimingFromEnv(env: NodeJS.ProcessEnv, log: Pick<Logger, 'warn'>): InstanceTiming {
  const { PARLEY_INSTANCE_HEARTBEAT_MS: beat, PARLEY_INSTANCE_LEASE_MS: lease } = env;
  if (beat === undefined && lease === undefined) return DEFAULT_INSTANCE_TIMING;
  const timing = { heartbeatMs: Number(beat ?? DEFAULT_INSTANCE_TIMING.heartbeatMs), leaseMs: Number(lease ?? DEFAULT_INSTANCE_TIMING.leaseMs) };
  const whole = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
  if (whole(timing.heartbeatMs) && whole(timing.leaseMs) && timing.leaseMs >= 3 * timing.heartbeatMs) return timing;
  log.warn(
    `PARLEY_INSTANCE_HEARTBEAT_MS=${beat ?? '(unset)'} and PARLEY_INSTANCE_LEASE_MS=${lease ?? '(unset)'} are not whole milliseconds with the lease at least three heartbeats; using ${DEFAULT_INSTANCE_TIMING.heartbeatMs} and ${DEFAULT_INSTANCE_TIMING.leaseMs}.`,
  );
  return DEFAULT_INSTANCE_TIMING;
}

/** Repeats `fn` every `ms` until the returned function is called (tests drive it by hand). */
export type Every = (ms: number, fn: () => void) => () => void;

export const realEvery: Every = (ms, fn) => {
  const timer = setInterval(fn, ms);
  // The heartbeat never keeps a process alive.
  timer.unref();
  return () => clearInterval(timer);
};

/** Whether process `pid` runs on this host (EPERM: it does, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface MembershipDeps {
  repo: InstancesRepo;
  now: () => Date;
  log: Logger;
  timing?: InstanceTiming;
  every?: Every;
  /** A server takes over work (true); a process joining one (the MCP server) only says it is alive. */
  recovers: boolean;
  /**
   * The database is one file only one server opens at a time (SQLite): any other server's row is
   * a previous run's, gone now, whatever its heartbeat says.
   */
  exclusive: boolean;
  host?: string;
  pid?: number;
  alive?: (pid: number) => boolean;
}

export class Membership {
  private readonly timing: InstanceTiming;
  private readonly host: string;
  private readonly pid: number;
  private stopTimer: (() => void) | null = null;
  private left = false;

  constructor(private readonly deps: MembershipDeps) {
    this.timing = deps.timing ?? DEFAULT_INSTANCE_TIMING;
    this.host = deps.host ?? hostname();
    this.pid = deps.pid ?? process.pid;
  }

  get id(): string {
    return this.deps.repo.self ?? '';
  }

  /**
   * Start-up: instances gone are removed (their work is free), then this one joins. Answers how
   * many other servers are live: with none, nothing is in flight but what this one starts.
   */
  join(): { otherServers: number } {
    const { repo, now } = this.deps;
    const { live: others } = this.reap(true);
    repo.register({ host: this.host, pid: this.pid, recovers: this.deps.recovers, now: now().toISOString() });
    return { otherServers: others.filter((row) => row.recovers === 1).length };
  }

  /**
   * Heartbeats from now on; a server runs `takeOver` after each. Where only one server opens the
   * database (SQLite), nothing can be left unclaimed but by a process gone: only then.
   */
  start(takeOver: () => void): void {
    const beat = (): void => {
      if (this.left) return;
      try {
        const removed = this.beat();
        if (this.deps.recovers && (!this.deps.exclusive || removed > 0)) takeOver();
      } catch (error) {
        this.deps.log.warn(`the instance heartbeat failed: ${String(error)}`);
      }
    };
    this.stopTimer = (this.deps.every ?? realEvery)(this.timing.heartbeatMs, beat);
  }

  /** No more heartbeats (shutdown began: no work is taken up any more). */
  stopBeating(): void {
    this.stopTimer?.();
    this.stopTimer = null;
  }

  /** One heartbeat: this instance is alive; the gone ones are removed (answers how many). */
  beat(): number {
    const { repo, now, log } = this.deps;
    if (!repo.touch(now().toISOString())) {
      log.warn(`This instance (${this.id}) was silent longer than ${this.timing.leaseMs / 1000} s and presumed stopped by another; it joins again. Answers it was writing were marked interrupted.`);
      repo.register({ host: this.host, pid: this.pid, recovers: this.deps.recovers, now: now().toISOString() });
    }
    return this.deps.recovers ? this.reap(false).removed : 0;
  }

  /** Leaving (after the work has stopped): the row and every claim of this instance go. */
  leave(): void {
    if (this.left) return;
    this.left = true;
    this.stopBeating();
    try {
      this.deps.repo.remove(this.id);
    } catch (error) {
      this.deps.log.warn(`leaving the instances' list failed (the others take over after ${this.timing.leaseMs / 1000} s): ${String(error)}`);
    }
  }

  /** Removes the instances presumed dead; answers the live others and how many went. */
  private reap(starting: boolean): { live: InstanceRecord[]; removed: number } {
    const { repo, now, log } = this.deps;
    const cutoff = now().getTime() - this.timing.leaseMs;
    const alive = this.deps.alive ?? processAlive;
    const live: InstanceRecord[] = [];
    let removed = 0;
    for (const row of repo.list()) {
      if (row.id === this.id) continue;
      const silent = Date.parse(row.seen_at) < cutoff;
      const goneHere = row.host === this.host && !alive(row.pid);
      const previousRun = starting && this.deps.exclusive && row.recovers === 1;
      if (!silent && !goneHere && !previousRun) {
        live.push(row);
        continue;
      }
      repo.remove(row.id);
      removed++;
      if (!previousRun) log.warn(`Instance ${row.id} (${row.host}, pid ${row.pid}) ${goneHere ? 'has stopped' : `was silent for over ${this.timing.leaseMs / 1000} s`}: its work is taken over.`);
    }
    return { live, removed };
  }
}

/** Claims of one kind of work, for this instance. */
export interface WorkClaims {
  /** False when a live instance holds it. */
  claim(key: string): boolean;
  release(key: string): void;
  /** True when another live instance holds it (a request reaching this one must ask that one). */
  heldElsewhere(key: string): boolean;
}

export function claimsOf(repo: InstancesRepo, kind: ClaimKind, now: () => Date): WorkClaims {
  return {
    claim: (key) => repo.claim(kind, key, now().toISOString()),
    release: (key) => repo.release(kind, key),
    heldElsewhere: (key) => {
      const holder = repo.holder(kind, key);
      return holder !== undefined && holder !== repo.self;
    },
  };
}

/** One process alone (tools, tests): every claim is its own. */
export const ALONE: WorkClaims = { claim: () => true, release: () => {}, heldElsewhere: () => false };
