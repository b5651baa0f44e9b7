import type { ChatEvent, Sequenced, StreamEvent } from '../../../../shared/events.js';

/*
 * The answers being written, as the wings that start and watch them see them; answering/hub.ts
 * and answering/slots.ts implement these, the composition root (boot.ts) wires them.
 */

export interface RunHandle<E extends StreamEvent = ChatEvent> {
  signal: AbortSignal;
  emit(event: E): void;
  /**
   * The answer is stored: whoever waits for it (`finished`, `cancel`, `isRunning`) stops waiting,
   * while the stream stays open for what follows it (a thread's new title) until `end`.
   */
  settle(): void;
  /** Ends the stream (settling it first); subscribers drain the log and stop. */
  end(): void;
}

/** Live answers by message id (chat) or comparison id (model comparisons), replayable from any event id. */
export interface StreamHubPort {
  start<E extends StreamEvent = ChatEvent>(messageId: string): RunHandle<E>;
  /** True while this process has the answer in memory: being written, or ended and still replayable. */
  holds(messageId: string): boolean;
  /** True until the answer is stored (settled), even while its stream stays open after it. */
  isRunning(messageId: string): boolean;
  /** Resolves when the answer has been stored (settled; at once if it is not running). */
  finished(messageId: string): Promise<void>;
  /** Asks a running answer to stop; resolves once it has been stored. False when nothing runs. */
  cancel(messageId: string): Promise<boolean>;
  /** Events after `afterId` (-1: from the start), then live ones until the end; undefined if not in memory. */
  subscribe<E extends StreamEvent = ChatEvent>(messageId: string, afterId?: number): AsyncIterable<Sequenced<E>> | undefined;
}

/** How many answers each user may have being written at once (`[chat] max_concurrent_answers`). */
export interface AnswerSlotsPort {
  /** Refuses with 429 `rate_limited` when `userId` has no slot free; does not take one. */
  check(userId: string): void;
  /** Takes one of `userId`'s slots (429 when none is free); answers its release. */
  take(userId: string): () => void;
}
