import { ServiceError } from '../../../shared/errors.js';
import type { Logger } from '../platform/logger.js';
import type { LifecyclePort } from '../platform/ports/lifecycle.js';

/**
 * The one shutdown rule: stop accepting, wait for what is running, then (the caller) close the
 * database. Nothing in the core asks whether the database is still open: work that runs is
 * tracked here, and the connection closes only once it has all ended.
 */
export class Lifecycle implements LifecyclePort {
  private open = true;
  private readonly stopping = new AbortController();
  private readonly work = new Set<Promise<unknown>>();

  /** Aborted when shutdown begins: long background work (a report's summary, a facade answer) stops early. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  get accepting(): boolean {
    return this.open;
  }

  /** Refuses new requests once shutdown has begun, with a clear error (503 `unavailable`). */
  assertAccepting(): void {
    if (!this.open) throw new ServiceError('unavailable', 'Parley is shutting down and accepts no new requests; try again once it has restarted.');
  }

  /** Counts `work` as running until it settles; shutdown waits for it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.work.add(work);
    const done = () => this.work.delete(work);
    work.then(done, done);
    return work;
  }

  /** How much tracked work is running now. */
  get running(): number {
    return this.work.size;
  }

  /**
   * Stops accepting, runs `stop` (which asks running work to end: answers are stored as
   * interrupted), then waits for everything tracked — at most `graceMs`, so a stuck call cannot
   * keep the app from quitting (said in the log).
   */
  async drain(stop: () => Promise<void>, log: Logger, graceMs = 10_000): Promise<void> {
    if (this.open) {
      this.open = false;
      this.stopping.abort('shutdown');
    }
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), graceMs);
      timer.unref();
    });
    const settled = (async () => {
      await stop();
      while (this.work.size > 0) await Promise.allSettled([...this.work]);
      return 'done' as const;
    })();
    const outcome = await Promise.race([settled, grace]);
    clearTimeout(timer);
    if (outcome === 'late') log.warn(`Shutting down with ${this.work.size} task(s) still running after ${graceMs} ms; what they write next is lost.`);
  }
}
