import { describe, expect, it } from 'vitest';
import { EWMA_ALPHA, HealthTracker } from '../../../main/core/models/routing/health.js';

function tracker(failure_threshold = 3, cooldown_seconds = 30) {
  const clock = { t: 1_000_000 };
  const h = new HealthTracker({ failure_threshold, cooldown_seconds }, () => clock.t);
  const advance = (ms: number) => {
    clock.t += ms;
  };
  return { h, advance };
}

describe('HealthTracker: moving averages', () => {
  it('starts unknown and healthy', () => {
    const { h } = tracker();
    expect(h.health('m')).toEqual({ latency_ewma_ms: null, error_rate: 0, circuit: 'closed' });
    expect(h.tryAcquire('m')).toBe(true);
  });

  it.each([
    { latencies: [100], expected: 100 },
    { latencies: [100, 200], expected: 0.3 * 200 + 0.7 * 100 },
    { latencies: [100, 200, 400], expected: 0.3 * 400 + 0.7 * (0.3 * 200 + 0.7 * 100) },
    { latencies: [500, 0], expected: 350 },
  ])('latency EWMA of $latencies is $expected', ({ latencies, expected }) => {
    const { h } = tracker();
    for (const l of latencies) h.recordSuccess('m', l);
    expect(EWMA_ALPHA).toBe(0.3);
    expect(h.health('m').latency_ewma_ms).toBeCloseTo(expected, 9);
  });

  it('error rate rises with failures and decays with successes', () => {
    const { h } = tracker(100);
    h.recordFailure('m');
    expect(h.health('m').error_rate).toBeCloseTo(0.3, 9);
    h.recordFailure('m');
    expect(h.health('m').error_rate).toBeCloseTo(0.3 + 0.7 * 0.3, 9);
    h.recordSuccess('m', 10);
    expect(h.health('m').error_rate).toBeCloseTo(0.7 * 0.51, 9);
    // A failure does not change the latency average.
    expect(h.health('m').latency_ewma_ms).toBe(10);
  });

  it('keeps models apart', () => {
    const { h } = tracker(1);
    h.recordFailure('a');
    h.recordSuccess('b', 50);
    expect(h.health('a').circuit).toBe('open');
    expect(h.health('b')).toEqual({ latency_ewma_ms: 50, error_rate: 0, circuit: 'closed' });
  });
});

describe('HealthTracker: circuit breaker', () => {
  it('opens after exactly failure_threshold consecutive failures', () => {
    const { h } = tracker(3);
    h.recordFailure('m');
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('closed');
    expect(h.tryAcquire('m')).toBe(true);
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('open');
    expect(h.tryAcquire('m')).toBe(false);
  });

  it('counts consecutive failures only: a success in between resets the count', () => {
    const { h } = tracker(3);
    h.recordFailure('m');
    h.recordFailure('m');
    h.recordSuccess('m', 100);
    h.recordFailure('m');
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('closed');
  });

  it('stays open for the cooldown, then lets exactly one trial through', () => {
    const { h, advance } = tracker(1, 30);
    h.recordFailure('m');
    advance(29_999);
    expect(h.health('m').circuit).toBe('open');
    expect(h.tryAcquire('m')).toBe(false);
    advance(1);
    expect(h.health('m').circuit).toBe('half_open');
    expect(h.tryAcquire('m')).toBe(true);
    expect(h.tryAcquire('m')).toBe(false);
    expect(h.tryAcquire('m')).toBe(false);
    expect(h.health('m').circuit).toBe('half_open');
  });

  it('closes when the trial succeeds', () => {
    const { h, advance } = tracker(2, 10);
    h.recordFailure('m');
    h.recordFailure('m');
    advance(10_000);
    expect(h.tryAcquire('m')).toBe(true);
    h.recordSuccess('m', 120);
    expect(h.health('m').circuit).toBe('closed');
    expect(h.tryAcquire('m')).toBe(true);
    expect(h.tryAcquire('m')).toBe(true);
    // And it takes failure_threshold new failures to open it again.
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('closed');
  });

  it('reopens for a full cooldown when the trial fails', () => {
    const { h, advance } = tracker(2, 10);
    h.recordFailure('m');
    h.recordFailure('m');
    advance(15_000);
    expect(h.tryAcquire('m')).toBe(true);
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('open');
    expect(h.tryAcquire('m')).toBe(false);
    advance(9_000);
    expect(h.health('m').circuit).toBe('open');
    advance(1_000);
    expect(h.health('m').circuit).toBe('half_open');
    expect(h.tryAcquire('m')).toBe(true);
  });

  it('a late failure while open does not extend the cooldown', () => {
    const { h, advance } = tracker(1, 10);
    h.recordFailure('m');
    advance(5_000);
    h.recordFailure('m');
    advance(5_000);
    expect(h.health('m').circuit).toBe('half_open');
  });

  it('gives up on a trial that never reports after one more cooldown', () => {
    const { h, advance } = tracker(1, 10);
    h.recordFailure('m');
    advance(10_000);
    expect(h.tryAcquire('m')).toBe(true);
    advance(9_000);
    expect(h.tryAcquire('m')).toBe(false);
    advance(1_000);
    expect(h.tryAcquire('m')).toBe(true);
  });

  it('setPolicy applies to circuits already open and to the next failures', () => {
    const { h, advance } = tracker(1, 60);
    h.recordFailure('m');
    advance(10_000);
    expect(h.health('m').circuit).toBe('open');
    h.setPolicy({ failure_threshold: 2, cooldown_seconds: 5 });
    expect(h.health('m').circuit).toBe('half_open');
    h.recordSuccess('m', 1);
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('closed');
    h.recordFailure('m');
    expect(h.health('m').circuit).toBe('open');
  });

  it('forget drops a model', () => {
    const { h } = tracker(1);
    h.recordFailure('m');
    h.forget('m');
    expect(h.health('m')).toEqual({ latency_ewma_ms: null, error_rate: 0, circuit: 'closed' });
  });
});

describe('HealthTracker: connection tests', () => {
  it('a failed test holds the circuit open past any cooldown, with no trial, until a test passes', () => {
    const { h, advance } = tracker(3, 30);
    h.recordTest('m', false, 10);
    expect(h.health('m').circuit).toBe('open');
    advance(10 * 60_000);
    expect(h.health('m').circuit).toBe('open');
    expect(h.tryAcquire('m')).toBe(false);
    h.recordTest('m', true, 12);
    expect(h.health('m').circuit).toBe('closed');
    expect(h.tryAcquire('m')).toBe(true);
  });
});
