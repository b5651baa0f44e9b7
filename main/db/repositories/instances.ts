import type { SqlDb as Db } from '../sql.js';

/** A running Parley on this database (migration 300). */
export interface InstanceRecord {
  id: string;
  host: string;
  pid: number;
  /** 1: a server, which takes over work; 0: a process that joins one (the MCP server). */
  recovers: number;
  started_at: string;
  seen_at: string;
}

/** Background work one instance does at a time. */
export type ClaimKind = 'ingest' | 'embedding' | 'download' | 'folder';

/**
 * The instances sharing this database and their claims on background work. A claim whose instance
 * has no row is free: removing a dead instance's row hands its work to whoever claims it next, in
 * one statement, with no second list to keep in step.
 */
export function createInstancesRepo(db: Db, self: string | null) {
  const all = db.prepare<[], InstanceRecord>('SELECT * FROM instances ORDER BY started_at');
  const insert = db.prepare(
    `INSERT INTO instances (id, host, pid, recovers, started_at, seen_at) VALUES (@id, @host, @pid, @recovers, @now, @now)
     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
  );
  const touch = db.prepare('UPDATE instances SET seen_at = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM instances WHERE id = ?');
  const dropClaims = db.prepare('DELETE FROM claims WHERE instance = ?');
  // Taken when free (nobody's, or a gone instance's) or already this instance's: one statement, so
  // two instances claiming together cannot both win.
  const claim = db.prepare(
    `INSERT INTO claims (kind, key, instance, claimed_at) VALUES (@kind, @key, @instance, @now)
     ON CONFLICT (kind, key) DO UPDATE SET instance = excluded.instance, claimed_at = excluded.claimed_at
     WHERE claims.instance = excluded.instance OR claims.instance NOT IN (SELECT id FROM instances)`,
  );
  const release = db.prepare('DELETE FROM claims WHERE kind = ? AND key = ? AND instance = ?');
  const holder = db.prepare<[string, string], { instance: string }>(
    'SELECT c.instance FROM claims c JOIN instances i ON i.id = c.instance WHERE c.kind = ? AND c.key = ?',
  );

  const me = (): string => {
    if (self === null) throw new Error('these repositories belong to no instance');
    return self;
  };

  return {
    /** This connection's instance (what `written_by` and claims name), if it is one. */
    self,
    list: () => all.all(),
    /** Joins (or, after being presumed dead, joins again); `recovers` as for `InstanceRecord`. */
    register(row: { host: string; pid: number; recovers: boolean; now: string }) {
      insert.run({ id: me(), host: row.host, pid: row.pid, recovers: row.recovers ? 1 : 0, now: row.now });
    },
    /** The heartbeat; false when another instance presumed this one dead and removed it. */
    touch: (now: string) => touch.run(now, me()).changes > 0,
    /** An instance gone (presumed dead, or this one leaving): its row and claims go, so its work is free. */
    remove(id: string) {
      db.transaction(() => {
        remove.run(id);
        dropClaims.run(id);
      })();
    },
    /** Claims work for this instance; false when a live instance holds it. */
    claim: (kind: ClaimKind, key: string, now: string) => claim.run({ kind, key, instance: me(), now }).changes > 0,
    /** Gives up this instance's claim (the work ended). */
    release: (kind: ClaimKind, key: string) => void release.run(kind, key, me()),
    /** The live instance holding a claim, if any. */
    holder: (kind: ClaimKind, key: string) => holder.get(kind, key)?.instance,
  };
}

export type InstancesRepo = ReturnType<typeof createInstancesRepo>;
