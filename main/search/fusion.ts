/**
 * Reciprocal rank fusion: each list votes 1 / (k + rank) (rank from 1) for its ids; best first.
 * Ties go to the id with the better single rank, then the larger id (the newer chunk).
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly number[]>, k = 60): Array<{ id: number; score: number }> {
  const fused = new Map<number, { score: number; best: number }>();
  for (const list of lists) {
    list.forEach((id, index) => {
      const entry = fused.get(id) ?? { score: 0, best: Number.POSITIVE_INFINITY };
      entry.score += 1 / (k + index + 1);
      entry.best = Math.min(entry.best, index + 1);
      fused.set(id, entry);
    });
  }
  return [...fused]
    .sort(([ia, a], [ib, b]) => b.score - a.score || a.best - b.best || ib - ia)
    .map(([id, { score }]) => ({ id, score }));
}

