import type { z } from 'zod';
import type { Dataset, updateDataset } from '../../../shared/operations/datasets.js';
import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { Db } from '../connection.js';
import { decodeCursor, toPage } from './cursor.js';

/** A dataset as stored: the API's fields but the caller's `can_write`, plus its organization and owner. */
export type DatasetRecord = Omit<z.output<typeof Dataset>, 'can_write'> & {
  seq: number;
  organization_id: string;
  owner_id: string | null;
};

/** What `datasets.update` may change. */
export type DatasetPatch = Pick<ParsedInputOf<typeof updateDataset>, 'name' | 'description'>;

const SELECT = `
  SELECT d.*, kb.id AS kb_id, (SELECT count(*) FROM artifacts a WHERE a.kb_id = kb.id) AS artifact_count
  FROM datasets d JOIN knowledge_bases kb ON kb.dataset_id = d.id`;

export function createDatasetsRepo(db: Db) {
  const byId = db.prepare<[string], DatasetRecord>(`${SELECT} WHERE d.id = ?`);
  const byKb = db.prepare<[string], DatasetRecord>(`${SELECT} WHERE kb.id = ?`);
  const pageOf = db.prepare<[string, number, number], DatasetRecord>(`${SELECT} WHERE d.organization_id = ? AND d.seq < ? ORDER BY d.seq DESC LIMIT ?`);
  const insert = db.prepare(
    'INSERT INTO datasets (id, organization_id, owner_id, name, description, created_at, updated_at) VALUES (@id, @organization_id, @owner_id, @name, @description, @now, @now)',
  );
  const insertKb = db.prepare("INSERT INTO knowledge_bases (id, dataset_id, backend, created_at) VALUES (?, ?, 'database', ?)");
  const update = db.prepare(
    `UPDATE datasets SET name = coalesce(@name, name),
       description = CASE WHEN @set_description = 1 THEN @description ELSE description END, updated_at = @now WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM datasets WHERE id = ?');
  const unlinkThreads = db.prepare('DELETE FROM thread_datasets WHERE dataset_id = ?');
  const existing = (ids: string[], organizationId: string) =>
    ids.length === 0
      ? []
      : (db.prepare(`SELECT id FROM datasets WHERE organization_id = ? AND id IN (${ids.map(() => '?').join(',')})`).all(organizationId, ...ids) as { id: string }[]).map((r) => r.id);
  const kbsOf = (ids: string[]) =>
    ids.length === 0
      ? []
      : (db.prepare(`SELECT id FROM knowledge_bases WHERE dataset_id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { id: string }[]).map((r) => r.id);

  const reads = {
    get: (id: string) => byId.get(id),
    getByKb: (kbId: string) => byKb.get(kbId),
    page(organizationId: string, limit: number, cursor: string | undefined) {
      const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(cursor);
      if (before === undefined) return undefined;
      return toPage(pageOf.all(organizationId, before, limit + 1), limit);
    },
    /** Which of `ids` are datasets of the organization. */
    existing,
    /** The knowledge bases behind these datasets. */
    kbsOf,
  };
  const writes = {
    insert(row: Pick<DatasetRecord, 'id' | 'kb_id' | 'organization_id' | 'name' | 'description'> & { owner_id: string; now: string }) {
      db.transaction(() => {
        insert.run(row);
        insertKb.run(row.kb_id, row.id, row.now);
      })();
    },
    update: (id: string, patch: DatasetPatch, now: string) =>
      update.run({ id, name: patch.name ?? null, set_description: patch.description === undefined ? 0 : 1, description: patch.description ?? null, now }),
    /** The dataset and everything under it (knowledge base, artifacts, chunks, thread configurations), in one transaction. */
    delete: (id: string) =>
      db.transaction(() => {
        unlinkThreads.run(id);
        return remove.run(id).changes > 0;
      })(),
  };
  return { ...reads, ...writes };
}

export type DatasetsRepo = ReturnType<typeof createDatasetsRepo>;
