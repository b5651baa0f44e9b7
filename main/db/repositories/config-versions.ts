import type { Db } from '../connection.js';

export interface ConfigVersionRecord {
  version: number;
  toml: string;
  created_at: string;
  created_by: string | null;
  source: 'default' | 'file' | 'admin' | 'rollback';
}

/** A version with the name of whoever saved it (null once that user is gone, or for the app itself). */
export interface ConfigVersionRow extends ConfigVersionRecord {
  created_by_name: string | null;
}

const WITH_AUTHOR = `SELECT v.*, u.name AS created_by_name FROM config_versions v LEFT JOIN users u ON u.id = v.created_by`;

export function createConfigVersionsRepo(db: Db) {
  const latest = db.prepare<[], ConfigVersionRecord>('SELECT * FROM config_versions ORDER BY version DESC LIMIT 1');
  const get = db.prepare<[number], ConfigVersionRow>(`${WITH_AUTHOR} WHERE v.version = ?`);
  const list = db.prepare<[], ConfigVersionRow>(`${WITH_AUTHOR} ORDER BY v.version DESC`);
  const insert = db.prepare<[Omit<ConfigVersionRecord, 'version'>], { version: number }>(
    `INSERT INTO config_versions (version, toml, created_at, created_by, source)
     VALUES ((SELECT coalesce(max(version), 0) + 1 FROM config_versions), @toml, @created_at, @created_by, @source)
     RETURNING version`,
  );
  return {
    latest: () => latest.get(),
    get: (version: number) => get.get(version),
    /** Every version, newest first. */
    list: () => list.all(),
    insert: (row: Omit<ConfigVersionRecord, 'version'>): number => {
      const inserted = insert.get(row);
      if (!inserted) throw new Error('config version insert returned no row');
      return inserted.version;
    },
  };
}

export type ConfigVersionsRepo = ReturnType<typeof createConfigVersionsRepo>;
