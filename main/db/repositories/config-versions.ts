import type { Db } from '../connection.js';

export interface ConfigVersionRecord {
  version: number;
  toml: string;
  created_at: string;
  created_by: string | null;
  source: 'default' | 'file' | 'admin' | 'rollback';
}

export function createConfigVersionsRepo(db: Db) {
  const latest = db.prepare<[], ConfigVersionRecord>('SELECT * FROM config_versions ORDER BY version DESC LIMIT 1');
  const insert = db.prepare<[Omit<ConfigVersionRecord, 'version'>], { version: number }>(
    `INSERT INTO config_versions (version, toml, created_at, created_by, source)
     VALUES ((SELECT coalesce(max(version), 0) + 1 FROM config_versions), @toml, @created_at, @created_by, @source)
     RETURNING version`,
  );
  return {
    latest: () => latest.get(),
    insert: (row: Omit<ConfigVersionRecord, 'version'>): number => {
      const inserted = insert.get(row);
      if (!inserted) throw new Error('config version insert returned no row');
      return inserted.version;
    },
  };
}

export type ConfigVersionsRepo = ReturnType<typeof createConfigVersionsRepo>;
