import type { MigrationProgressListener } from './connection.js';

/**
 * A progress listener for migrations that writes their long steps to a log: the first report,
 * each further tenth, and the end, so re-indexing a million passages says where it is a dozen
 * times rather than two thousand. Steps of migrations that say nothing (no `describe`) are not logged.
 */
export function logMigrationProgress(log: (line: string) => void): MigrationProgressListener {
  const said = new Map<number, number>();
  return (migration, step) => {
    if (!migration.describe || step.total === 0) return;
    const tenth = Math.floor((10 * step.done) / step.total);
    const last = said.get(migration.version);
    if (last !== undefined && tenth === last && step.done < step.total) return;
    if (last === 10) return;
    said.set(migration.version, tenth);
    log(migration.describe(step));
  };
}
