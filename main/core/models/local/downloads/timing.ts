/**
 * Every wait of a model download — the back-off between tries, the stall watchdog, how often
 * progress is saved — goes through these timers, so tests drive them by hand instead of waiting.
 */
import { backoffMs } from '../../../platform/backoff.js';

export interface DownloadTimers {
  /** Monotonic milliseconds (not wall-clock: a clock change must not fire or hold a timer). */
  now(): number;
  /** Runs `fn` after `ms`; answers a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

export const realTimers: DownloadTimers = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

/** 1 s, 2 s, 4 s, … up to 60 s (the shared policy): a minute is the longest a download waits once the network is back. */
export const defaultBackoff = backoffMs;

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(timers: DownloadTimers, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const cancel = timers.after(ms, done);
    function done() {
      cancel();
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** How often a download waiting for the network checks whether the server answers again. */
export const PROBE_EVERY_MS = 5000;

/**
 * Resolves after `ms`, at once when `signal` aborts, or as soon as `reachable()` says the server
 * answers again (asked every `everyMs` during a longer wait): a download waiting a minute after the
 * network went away goes on within seconds of it coming back, without hammering a server that is
 * down with full requests.
 */
export function sleepUntilReachable(timers: DownloadTimers, ms: number, signal: AbortSignal, reachable: () => Promise<boolean>, everyMs = PROBE_EVERY_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    let done = false;
    let cancelProbe = () => {};
    const finish = () => {
      if (done) return;
      done = true;
      cancelWait();
      cancelProbe();
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const cancelWait = timers.after(ms, finish);
    const probe = () => {
      cancelProbe = timers.after(everyMs, () => {
        reachable().then(
          (up) => (up ? finish() : done || probe()),
          () => done || probe(),
        );
      });
    };
    if (ms > everyMs) probe();
    signal.addEventListener('abort', finish, { once: true });
  });
}

/**
 * Calls `onStall` when `touch()` has not been called for `ms`. undici's own header and body
 * timeouts are 5 minutes each, a slot held that long by a dead connection.
 */
export class Watchdog {
  private cancel: () => void = () => {};
  fired = false;

  constructor(
    private readonly timers: DownloadTimers,
    private readonly ms: number,
    private readonly onStall: () => void,
  ) {
    this.touch();
  }

  touch(): void {
    this.cancel();
    if (this.fired || this.ms <= 0) return;
    this.cancel = this.timers.after(this.ms, () => {
      this.fired = true;
      this.onStall();
    });
  }

  stop(): void {
    this.cancel();
    this.cancel = () => {};
  }
}
