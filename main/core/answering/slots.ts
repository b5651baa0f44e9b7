import { ServiceError } from '../../../shared/errors.js';
import type { AnswerSlotsPort } from '../platform/ports/answers.js';

/**
 * How many answers each user may have being written at once (`[chat] max_concurrent_answers`): a
 * chat answer, a comparison (one, whatever its models) and a `/v1` completion each hold one slot
 * from before anything starts until the answer ends, however it ends. One caller asking for
 * hundreds at once would otherwise hold the main thread for everyone (issue 27).
 */
export class AnswerSlots implements AnswerSlotsPort {
  private readonly held = new Map<string, number>();

  /** `limit` is read at each take, so a configuration change applies to the next answer. */
  constructor(private readonly limit: () => number) {}

  /** Refuses with 429 `rate_limited` when `userId` has no slot free; does not take one. */
  check(userId: string): void {
    const limit = this.limit();
    if (this.inUse(userId) < limit) return;
    throw new ServiceError('rate_limited', `You have ${limit} answer${limit === 1 ? '' : 's'} being written; wait for one to finish.`);
  }

  /** Takes one of `userId`'s slots (429 when none is free); answers its release, which frees it once however often it is called. */
  take(userId: string): () => void {
    this.check(userId);
    this.held.set(userId, this.inUse(userId) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.inUse(userId) - 1;
      if (left > 0) this.held.set(userId, left);
      else this.held.delete(userId);
    };
  }

  /** The answers `userId` has being written now. */
  inUse(userId: string): number {
    return this.held.get(userId) ?? 0;
  }
}

/**
 * `events`, holding a slot until they end: done, failed, or left by the reader (`return()`), or
 * `signal` aborted (the client went, or shutdown) — whichever comes first releases it.
 */
export async function* holdingSlot<T>(events: AsyncIterable<T>, release: () => void, signal: AbortSignal): AsyncGenerator<T> {
  signal.addEventListener('abort', release, { once: true });
  try {
    yield* events;
  } finally {
    signal.removeEventListener('abort', release);
    release();
  }
}
