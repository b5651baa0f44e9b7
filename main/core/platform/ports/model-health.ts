/** Observed health of one model, from the HealthTracker (models/routing/health.ts). */
export interface ModelHealth {
  /** Exponentially weighted moving average of time to first token, ms; null before any call. */
  latency_ewma_ms: number | null;
  /** EWMA of failures (0 = never fails, 1 = always fails). */
  error_rate: number;
  circuit: 'closed' | 'open' | 'half_open';
}

/** Observed model health, fed by every model call; the router reads it. */
export interface HealthRecorder {
  health(modelId: string): ModelHealth;
  /** False while the model's circuit is open (or its half-open trial is taken). */
  tryAcquire(modelId: string): boolean;
  recordSuccess(modelId: string, latencyMs: number): void;
  recordFailure(modelId: string): void;
  /** A connection test's outcome: a failure holds the model unavailable until a test passes. */
  recordTest(modelId: string, ok: boolean, latencyMs: number): void;
  /** Drops what is known about a model (removed, or edited to call something else). */
  forget(modelId: string): void;
}
