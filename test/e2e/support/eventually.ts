import { expect } from 'vitest';

/**
 * How long a read of the page may take to come true. Generous on purpose: the UI updates after
 * requests, streams and React renders, and the test machine has 2 cores shared with other work,
 * so a value that is right in 50 ms on a quiet laptop can take seconds there. A passing read
 * returns as soon as it is true; only a failing one waits this long.
 */
export const EVENTUALLY_TIMEOUT_MS = 30_000;

export interface EventuallyOptions {
  /** Longer for reads that wait on a whole streamed answer, say. */
  readonly timeout?: number;
  /** Said first when the read never comes true. */
  readonly message?: string;
}

/**
 * The one way e2e tests read the page: `read` is called again (every 50 ms) until the matcher
 * passes or the timeout ends, so an assertion never catches the UI half-way through an update.
 *
 *   await eventually(() => row.textContent()).toContain('Active');
 *   await eventually(() => page.getByRole('row').count()).toBe(3);
 *   await eventually(() => button.isDisabled()).toBe(false);
 *
 * A read that throws (an element not there yet) counts as not yet true. Await the result: the
 * assertion only runs when awaited. A plain `expect(await …)` stays right only for a value that
 * is settled before it is read (an axe result, a value returned by the API, a clipboard the test
 * just wrote); say why next to it when that is not obvious.
 */
export function eventually<T>(read: () => T | Promise<T>, options: EventuallyOptions = {}) {
  return expect.poll(read, { interval: 50, timeout: options.timeout ?? EVENTUALLY_TIMEOUT_MS, message: options.message });
}
