/** What work asks of the shutdown rule (service/lifecycle.ts): whether to start, and being waited for. */
export interface LifecyclePort {
  /** Aborted when shutdown begins: long background work stops early. */
  readonly signal: AbortSignal;
  readonly accepting: boolean;
  /** Refuses new requests once shutdown has begun (503 `unavailable`). */
  assertAccepting(): void;
  /** Counts `work` as running until it settles; shutdown waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
}
