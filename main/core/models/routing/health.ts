import type { ModelHealth, RoutingPolicy } from './types.js';

/** Weight of the newest observation in both moving averages. */
export const EWMA_ALPHA = 0.3;

export type BreakerPolicy = Pick<RoutingPolicy, 'failure_threshold' | 'cooldown_seconds'>;

interface ModelState {
  latency_ewma_ms: number | null;
  error_rate: number;
  consecutive_failures: number;
  /** When the circuit opened (clock ms); null while closed. */
  opened_at: number | null;
  /** When the half-open trial was let through (clock ms); null when no trial is in flight. */
  trial_started_at: number | null;
  /**
   * Its connection test failed: held open (no cooldown, no trial) until a test passes or an answer
   * it was asked for by name succeeds. A model known not to answer is not offered to the router.
   */
  test_failed: boolean;
}

/**
 * Observed health of each model, in memory, O(1) per call.
 *
 * Circuit breaker: `failure_threshold` consecutive failures open a model's circuit for
 * `cooldown_seconds`; after that it is half open and `tryAcquire` lets exactly one trial through.
 * The trial's success closes the circuit, its failure opens it for another cooldown. The open →
 * half-open step is computed from the clock on read, so no timer runs.
 *
 * Callers take a model with `tryAcquire` before calling it and report the outcome with
 * `recordSuccess` or `recordFailure`.
 *
 * Not cockatiel's `circuitBreaker` (4.0), which cannot hold what the router relies on: it learns
 * an outcome only when the wrapped promise settles, while an answer succeeds at its first token and
 * is streamed on, and `answer_too_long` is a failure reported after the call; while half open it
 * makes other callers wait for the trial, where the router moves on to the next candidate at once;
 * its `state` stays open after the cooldown until some call comes, so the catalog could not show a
 * model as recovering; a circuit held open by a failed test (`isolate()`) rejects every call,
 * where the last candidate is tried whatever its health and its success must close it (the
 * `recordTest` rule); its threshold is fixed when built
 * (`setPolicy` applies a live config change); and it reads `Date.now()`, not an injected clock.
 */
export class HealthTracker {
  private readonly models = new Map<string, ModelState>();
  private policy: BreakerPolicy;

  constructor(
    policy: BreakerPolicy,
    /** Milliseconds; injected so tests can move time. */
    private readonly now: () => number = Date.now,
  ) {
    this.policy = { failure_threshold: policy.failure_threshold, cooldown_seconds: policy.cooldown_seconds };
  }

  /** Takes effect at once, also for circuits already open (their cooldown is measured from when they opened). */
  setPolicy(policy: BreakerPolicy): void {
    this.policy = { failure_threshold: policy.failure_threshold, cooldown_seconds: policy.cooldown_seconds };
  }

  health(modelId: string): ModelHealth {
    const s = this.models.get(modelId);
    if (!s) return { latency_ewma_ms: null, error_rate: 0, circuit: 'closed' };
    return { latency_ewma_ms: s.latency_ewma_ms, error_rate: s.error_rate, circuit: s.test_failed ? 'open' : this.circuitOf(s, this.now()) };
  }

  /** The outcome of an explicit connection test: a failure holds the circuit open until a pass. */
  recordTest(modelId: string, ok: boolean, latencyMs: number): void {
    if (ok) {
      this.recordSuccess(modelId, latencyMs);
      return;
    }
    const s = this.state(modelId);
    s.test_failed = true;
    s.error_rate = EWMA_ALPHA + (1 - EWMA_ALPHA) * s.error_rate;
    s.opened_at ??= this.now();
    s.trial_started_at = null;
  }

  /**
   * May this model be called now? Always while closed; never while open; while half open, true for
   * exactly one caller (the trial), until that trial reports. A trial that never reports (a lost
   * request) is given up after one more cooldown, so a model cannot stay half open for ever.
   */
  tryAcquire(modelId: string): boolean {
    const s = this.models.get(modelId);
    if (s?.test_failed) return false;
    if (!s || s.opened_at === null) return true;
    const now = this.now();
    if (this.circuitOf(s, now) !== 'half_open') return false;
    if (s.trial_started_at !== null && now - s.trial_started_at < this.cooldownMs()) return false;
    s.trial_started_at = now;
    return true;
  }

  /** A call that produced its first token after `latencyMs`. Any success closes the circuit. */
  recordSuccess(modelId: string, latencyMs: number): void {
    const s = this.state(modelId);
    const latency = Number.isFinite(latencyMs) ? Math.max(0, latencyMs) : 0;
    s.latency_ewma_ms = s.latency_ewma_ms === null ? latency : EWMA_ALPHA * latency + (1 - EWMA_ALPHA) * s.latency_ewma_ms;
    s.error_rate = (1 - EWMA_ALPHA) * s.error_rate;
    s.consecutive_failures = 0;
    s.opened_at = null;
    s.trial_started_at = null;
    s.test_failed = false;
  }

  /** A call that failed before its first token. */
  recordFailure(modelId: string): void {
    const s = this.state(modelId);
    const now = this.now();
    s.error_rate = EWMA_ALPHA + (1 - EWMA_ALPHA) * s.error_rate;
    s.consecutive_failures += 1;
    if (s.opened_at === null) {
      if (s.consecutive_failures >= this.policy.failure_threshold) s.opened_at = now;
    } else if (this.circuitOf(s, now) === 'half_open') {
      // The trial failed (or a call let through before the circuit opened failed after the cooldown):
      // open again for a full cooldown.
      s.opened_at = now;
    }
    // A late failure while open (a call started before the circuit opened) does not extend the cooldown.
    s.trial_started_at = null;
  }

  /** Drops what is known about a model (e.g. when it is removed). */
  forget(modelId: string): void {
    this.models.delete(modelId);
  }

  private circuitOf(s: ModelState, now: number): ModelHealth['circuit'] {
    if (s.opened_at === null) return 'closed';
    return now - s.opened_at >= this.cooldownMs() ? 'half_open' : 'open';
  }

  private cooldownMs(): number {
    return this.policy.cooldown_seconds * 1000;
  }

  private state(modelId: string): ModelState {
    let s = this.models.get(modelId);
    if (!s) {
      s = { latency_ewma_ms: null, error_rate: 0, consecutive_failures: 0, opened_at: null, trial_started_at: null, test_failed: false };
      this.models.set(modelId, s);
    }
    return s;
  }
}
