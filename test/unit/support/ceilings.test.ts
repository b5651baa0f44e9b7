import { describe, expect, it, vi } from 'vitest';
import { WAIT_FOR_CEILING_MS } from '../../support/ceilings.js';

describe('the vi.waitFor ceiling (test/support/ceilings.ts, a setup file of every project)', () => {
  it('keeps waiting past vitest’s 1 s default when the test names no timeout', async () => {
    expect(WAIT_FOR_CEILING_MS).toBeGreaterThan(1_000);
    // True on the 60th check, 25 ms apart: at least 1.5 s after the start, past vitest's default.
    let checks = 0;
    const started = performance.now();
    await vi.waitFor(() => expect(++checks).toBeGreaterThanOrEqual(60), { interval: 25 });
    expect(performance.now() - started).toBeGreaterThan(1_000);
  });

  it('keeps a timeout the test names', async () => {
    await expect(vi.waitFor(() => expect(false).toBe(true), { timeout: 50, interval: 10 })).rejects.toThrow();
  });
});
