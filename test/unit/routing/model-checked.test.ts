import { describe, expect, it } from 'vitest';
import { checkedOf } from '../../../main/core/models/catalog/catalog.js';
import { HealthTracker } from '../../../main/core/models/routing/health.js';

/** Issue 31: a dead endpoint read "Available" until someone pressed Test. */
describe('whether a model’s health has been checked', () => {
  const tracker = () => new HealthTracker({ failure_threshold: 3, cooldown_seconds: 30 }, () => 0);

  it('is not, for a model nothing has reached yet, nor once it is edited and forgotten', () => {
    const h = tracker();
    expect(checkedOf(h.health('m'))).toBe(false);
    h.recordSuccess('m', 120);
    h.forget('m');
    expect(checkedOf(h.health('m'))).toBe(false);
  });

  it('is, after a test passes or fails, or after a call fails even once', () => {
    const h = tracker();
    h.recordTest('ok', true, 80);
    h.recordTest('dead', false, 0);
    h.recordFailure('flaky');
    expect(['ok', 'dead', 'flaky'].map((id) => checkedOf(h.health(id)))).toEqual([true, true, true]);
  });
});
