import { ProviderError } from '../../platform/ports/providers.js';

/** Calls `fn` after `ms`; answers a function that cancels it. Tests pass one they fire by hand. */
export type After = (ms: number, fn: () => void) => () => void;

export const realAfter: After = (ms, fn) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

/**
 * The first-byte deadline of one remote call. A server that accepts the connection and then says
 * nothing would otherwise hold the answer for the SDK's whole timeout (minutes) before the next
 * candidate may answer. `signal` is the one to give the SDK: it aborts when the caller's does, or
 * when nothing arrived in time. Without a deadline it is the caller's signal itself.
 */
export class FirstByteWatch {
  readonly signal: AbortSignal;
  private timedOut = false;
  private cancel: (() => void) | null = null;

  constructor(
    outer: AbortSignal,
    private readonly ms: number | undefined,
    after: After,
  ) {
    if (ms === undefined) {
      this.signal = outer;
      return;
    }
    const deadline = new AbortController();
    this.signal = AbortSignal.any([outer, deadline.signal]);
    this.cancel = after(ms, () => {
      this.timedOut = true;
      deadline.abort();
    });
  }

  /** Something came (a stream chunk): the model is alive, the deadline is over. Also frees the timer. */
  arrived(): void {
    this.cancel?.();
    this.cancel = null;
  }

  /** Throws the deadline's failure if it stopped the call. */
  throwIfGivenUp(provider: string): void {
    const failure = this.failure(provider);
    if (failure) throw failure;
  }

  /** The failure to report when the deadline, not the caller, stopped the call; null otherwise. */
  failure(provider: string): ProviderError | null {
    if (!this.timedOut) return null;
    const seconds = Number(((this.ms ?? 0) / 1000).toFixed(3));
    return new ProviderError('upstream_error', `${provider} sent nothing within ${seconds} s ([providers] first_byte_timeout_s), so it was given up.`);
  }
}
