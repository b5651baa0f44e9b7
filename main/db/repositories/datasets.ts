import type { z } from 'zod';
import type { Dataset, updateDataset } from '../../../shared/operations/datasets.js';
import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { SqlDb as Db } from '../sql.js';
import { decodeCursor, toPage } from './cursor.js';

/** A dataset as stored: the API's fields but the caller's `can_write`, plus its organization and owner. */
export type DatasetRecord = Omit<z.output<typeof Dataset>, 'can_write'> & {
  seq: number;
  organization_id: string;
  owner_id: string | null;
  /** The thread whose own files these are (files attached in its composer), or null for an ordinary dataset. */
  thread_id: string | null;
};

/** What `datasets.update` may change. */
export type DatasetPatch = Pick<ParsedInputOf<typeof updateDataset>, 'name' | 'description'>;

const SELECT = `
  SELECT d.*, kb.id AS kb_id, (SELECT count(*) FROM artifacts a WHERE a.kb_id = kb.id) AS artifact_count
  FROM datasets d JOIN knowledge_bases kb ON kb.dataset_id = d.id`;

export function createDatasetsRepo(db: Db) {
  const byId = db.prepare<[string], DatasetRecord>(`${SELECT} WHERE d.id = ?`);
  const byKb = db.prepare<[string], DatasetRecord>(`${SELECT} WHERE kb.id = ?`);
  // A thread's own files are listed only when asked for, and only to the thread's owner.
  const pageOf = db.prepare<{ org: string; before: number; limit: number; threads_of: string | null }, DatasetRecord>(
    `${SELECT} WHERE d.organization_id = @org AND d.seq < @before AND (d.thread_id IS NULL OR d.owner_id = @threads_of) ORDER BY d.seq DESC LIMIT @limit`,
  );
  const byThread = db.prepare<[string], DatasetRecord>(`${SELECT} WHERE d.thread_id = ?`);
  const insert = db.prepare(
    'INSERT INTO datasets (id, organization_id, owner_id, name, description, thread_id, created_at, updated_at) VALUES (@id, @organization_id, @owner_id, @name, @description, @thread_id, @now, @now)',
  );
  const insertKb = db.prepare("INSERT INTO knowledge_bases (id, dataset_id, backend, created_at) VALUES (?, ?, 'database', ?)");
  const update = db.prepare(
    `UPDATE datasets SET name = coalesce(@name, name),
       description = CASE WHEN @set_description = 1 THEN @description ELSE description END, updated_at = @now WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM datasets WHERE id = ?');
  const unlinkThreads = db.prepare('DELETE FROM thread_datasets WHERE dataset_id = ?');
  const existing = (ids: string[], organizationId: string, userId: string) =>
    ids.length === 0
      ? []
      : (
          db
            .prepare(`SELECT id FROM datasets WHERE organization_id = ? AND (thread_id IS NULL OR owner_id = ?) AND id IN (${ids.map(() => '?').join(',')})`)
            .all(organizationId, userId, ...ids) as { id: string }[]
        ).map((r) => r.id);
  const kbsOf = (ids: string[]) =>
    ids.length === 0
      ? []
      : (db.prepare(`SELECT id FROM knowledge_bases WHERE dataset_id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { id: string }[]).map((r) => r.id);

  const reads = {
    get: (id: string) => byId.get(id),
    getByKb: (kbId: string) => byKb.get(kbId),
    /** The organization's datasets; with `threadsOf`, also that user's threads' own datasets. */
    page(organizationId: string, limit: number, cursor: string | undefined, threadsOf: string | null = null) {
      const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : decodeCursor(cursor);
      if (before === undefined) return undefined;
      return toPage(pageOf.all({ org: organizationId, before, limit: limit + 1, threads_of: threadsOf }), limit);
    },
    /** The thread's own dataset (its attached files), if it has one yet. */
    ofThread: (threadId: string) => byThread.get(threadId),
    /** Which of `ids` are datasets of the organization that `userId` may use (a thread's own files are its owner's alone). */
    existing,
    /** The knowledge bases behind these datasets. */
    kbsOf,
  };
  const writes = {
    insert(row: Pick<DatasetRecord, 'id' | 'kb_id' | 'organization_id' | 'name' | 'description'> & { owner_id: string; thread_id?: string | null; now: string }) {
      db.transaction(() => {
        insert.run({ ...row, thread_id: row.thread_id ?? null });
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
