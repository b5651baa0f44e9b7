import { describe, expect, it } from 'vitest';
import { DEFAULT_ANN, efFor } from '../../../main/search/vectors/ann-params.js';

// Recall@10 ≥ 0.95 rests on these candidate lists (docs/performance.md "Vector index parameters"): wide vectors
// and large graphs need more than the base, or recall falls (0.920 at 1,536-d with ef 96; 0.951 at
// 100k vectors with ef 96 against 0.970 with 128).
describe('the HNSW candidate list', () => {
  it('is larger for wide vectors and for large graphs, and never below k', () => {
    const narrowSmall = efFor(DEFAULT_ANN, 384, 25_000, 10);
    const wideSmall = efFor(DEFAULT_ANN, 1_536, 25_000, 10);
    const narrowLarge = efFor(DEFAULT_ANN, 384, 250_000, 10);
    const wideLarge = efFor(DEFAULT_ANN, 1_536, 250_000, 10);
    expect(narrowSmall).toBe(96);
    expect(wideSmall).toBe(160);
    expect(narrowLarge).toBe(128);
    expect(wideLarge).toBe(213);
    // The thresholds themselves: 768 dimensions is not wide, 50,000 vectors is large.
    expect(efFor(DEFAULT_ANN, 768, 49_999, 10)).toBe(96);
    expect(efFor(DEFAULT_ANN, 769, 50_000, 10)).toBe(213);
    // A search for more neighbours than the list holds widens it to k.
    expect(efFor(DEFAULT_ANN, 384, 25_000, 500)).toBe(500);
  });
});
