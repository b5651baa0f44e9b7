import type { SqlDb as Db } from '../../sql.js';

/** An inclusive run of chunk ids. */
export interface IdRun {
  lo: number;
  hi: number;
}

/**
 * SQL that is true when the chunk id `column` is in no run of `chunk_unready` (migration 190): the
 * run with the largest start at or before the id is the only one that can hold it, one probe of the
 * table's primary key.
 */
export const searchableId = (column: string) => `coalesce((SELECT u.hi FROM chunk_unready u WHERE u.lo <= ${column} ORDER BY u.lo DESC LIMIT 1), -1) < ${column}`;

/**
 * Chunks of artifacts that are not ready (being processed, failed, left processing by a crash):
 * kept as id runs that every search leaves out (see migration 190 for why runs).
 */
export function createUnready(db: Db) {
  // Extends the artifact's run that ends just before `lo` (the previous batch of the same file), if any.
  const extend = db.prepare<{ lo: number; hi: number; artifact_id: string }>(
    `UPDATE chunk_unready SET hi = @hi
     WHERE lo = (SELECT max(lo) FROM chunk_unready WHERE lo < @lo) AND hi = @lo - 1 AND artifact_id = @artifact_id`,
  );
  const insert = db.prepare<{ lo: number; hi: number; artifact_id: string }>(
    "INSERT INTO chunk_unready (lo, hi, artifact_id) SELECT @lo, @hi, id FROM artifacts WHERE id = @artifact_id AND status <> 'ready'",
  );
  const notReady = db.prepare<[string], { one: number }>("SELECT 1 AS one FROM artifacts WHERE id = ? AND status <> 'ready'");
  const forget = db.prepare<[string]>('DELETE FROM chunk_unready WHERE artifact_id = ?');
  // Runs are disjoint, so the last one starting at or before `hi` is the only one that can reach into [lo, hi] from the left.
  const lastBefore = db.prepare<[bigint], { hi: number }>('SELECT hi FROM chunk_unready WHERE lo <= ? ORDER BY lo DESC LIMIT 1');
  const within = db.prepare<[bigint, bigint, bigint], IdRun>('SELECT lo, hi FROM chunk_unready WHERE hi >= ? AND lo <= ? ORDER BY lo LIMIT ?');

  return {
    /** Records new chunk ids [lo, hi] of an artifact; nothing when the artifact is ready (call inside the inserting transaction). */
    addUnready(artifactId: string, lo: number, hi: number): void {
      if (!notReady.get(artifactId)) return;
      const run = { lo, hi, artifact_id: artifactId };
      if (extend.run(run).changes === 0) insert.run(run);
    },

    /** The artifact's chunks are gone (replaced or removed): so are its runs. */
    forgetUnready: (artifactId: string): void => void forget.run(artifactId),

    /** Whether any chunk id in [lo, hi] belongs to an artifact that is not ready. */
    hasUnready(lo: number, hi: number): boolean {
      const last = lastBefore.get(BigInt(hi));
      return last !== undefined && last.hi >= lo;
    },

    /** The runs of unready chunk ids that overlap [lo, hi], in order (at most `limit`). */
    unreadyRuns: (lo: number, hi: number, limit = 100_000): IdRun[] => within.all(BigInt(lo), BigInt(hi), BigInt(limit)),
  };
}

export type Unready = ReturnType<typeof createUnready>;

/** Whether `id` lies in one of `runs` (sorted, disjoint): binary search. */
export function inRuns(runs: readonly IdRun[], id: number): boolean {
  let lo = 0;
  let hi = runs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const run = runs[mid]!;
    if (id < run.lo) hi = mid - 1;
    else if (id > run.hi) lo = mid + 1;
    else return true;
  }
  return false;
}
