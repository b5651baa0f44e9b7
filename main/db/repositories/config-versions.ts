import type { z } from 'zod';
import type { ConfigVersion } from '../../../shared/operations/config.js';
import type { SqlDb as Db } from '../sql.js';

/** A configuration as stored: the API's fields, its author kept as the user's id. */
export type ConfigVersionRecord = Pick<z.output<typeof ConfigVersion>, 'version' | 'toml' | 'created_at' | 'source'> & { created_by: string | null };

/** A version with the name of whoever saved it (null once that user is gone, or for the app itself). */
export type AuthoredConfigVersionRecord = ConfigVersionRecord & { created_by_name: string | null };

const WITH_AUTHOR = `SELECT v.*, u.name AS created_by_name FROM config_versions v LEFT JOIN users u ON u.id = v.created_by`;

export function createConfigVersionsRepo(db: Db) {
  const latest = db.prepare<[], ConfigVersionRecord>('SELECT * FROM config_versions ORDER BY version DESC LIMIT 1');
  const get = db.prepare<[number], AuthoredConfigVersionRecord>(`${WITH_AUTHOR} WHERE v.version = ?`);
  const list = db.prepare<[], AuthoredConfigVersionRecord>(`${WITH_AUTHOR} ORDER BY v.version DESC`);
  const insert = db.prepare<[Omit<ConfigVersionRecord, 'version'>], { version: number }>(
    `INSERT INTO config_versions (version, toml, created_at, created_by, source)
     VALUES ((SELECT coalesce(max(version), 0) + 1 FROM config_versions), @toml, @created_at, @created_by, @source)
     RETURNING version`,
  );
  const reads = {
    latest: () => latest.get(),
    get: (version: number) => get.get(version),
    /** Every version, newest first. */
    list: () => list.all(),
  };
  const writes = {
    insert: (row: Omit<ConfigVersionRecord, 'version'>): number => {
      const inserted = insert.get(row);
      if (!inserted) throw new Error('config version insert returned no row');
      return inserted.version;
    },
  };
  return { ...reads, ...writes };
}

export type ConfigVersionsRepo = ReturnType<typeof createConfigVersionsRepo>;
