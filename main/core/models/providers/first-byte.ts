import { errorText } from '../../../../shared/errors.js';
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

/** Maps the SDK's failures onto codes a caller can act on. */
export function providerErrorFrom(error: unknown, provider: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
  const message = errorText(error);
  if (status === 401 || status === 403) return new ProviderError('upstream_error', `${provider} refused the API key (${status}).`, status);
  if (status === 429) return new ProviderError('rate_limited', `${provider} is rate limiting requests (429).`, status);
  if (status !== undefined) return new ProviderError('upstream_error', `${provider} answered ${status}: ${message}`, status);
  return new ProviderError('upstream_error', `${provider} could not be reached or broke off: ${message}`);
}

/**
 * One streamed call to a remote model under its first-byte deadline, as every remote provider makes
 * it: `open` starts the call with the signal to give the SDK, `read` turns each chunk into events.
 * Answers false when the caller cancelled (the call ends quietly, nothing more is to be said), true
 * when the stream ended; a deadline that struck, or the SDK's failure, is thrown as `provider`'s.
 */
export async function* watchedStream<C, E>(
  request: { signal: AbortSignal; first_byte_timeout_ms?: number | undefined },
  provider: string,
  after: After,
  open: (signal: AbortSignal) => Promise<AsyncIterable<C>>,
  read: (chunk: C) => Iterable<E>,
): AsyncGenerator<E, boolean> {
  const watch = new FirstByteWatch(request.signal, request.first_byte_timeout_ms, after);
  try {
    for await (const chunk of await open(watch.signal)) {
      watch.arrived();
      yield* read(chunk);
    }
    // The SDK ends a stream quietly when its signal aborts: a deadline that struck is still a failure.
    watch.throwIfGivenUp(provider);
    return true;
  } catch (error) {
    if (request.signal.aborted) return false;
    throw watch.failure(provider) ?? providerErrorFrom(error, provider);
  } finally {
    watch.arrived();
  }
}
