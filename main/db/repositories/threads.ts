import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { Thread, updateThread } from '../../../shared/operations/threads.js';
import type { Db } from '../connection.js';
import { decodeCursor, toPage } from './cursor.js';

/** A thread as stored: the API's fields but its datasets (`datasetIds`), plus its owner, workspace and order. */
export type ThreadRecord = Omit<Thread, 'dataset_ids'> & {
  seq: number;
  user_id: string;
  workspace_id: string;
};

/** The row as SQLite holds it: `suggestions_enabled` as 0/1. */
type ThreadRow = Omit<ThreadRecord, 'suggestions_enabled'> & { suggestions_enabled: number };

/** What `threads.update` may change, datasets included. */
export type ThreadPatch = Omit<ParsedInputOf<typeof updateThread>, 'id'>;

const decode = (row: ThreadRow): ThreadRecord => ({ ...row, suggestions_enabled: row.suggestions_enabled === 1 });

const MAX_SEQ = Number.MAX_SAFE_INTEGER;

export function createThreadsRepo(db: Db) {
  const byId = db.prepare<[string], ThreadRow>('SELECT * FROM threads WHERE id = ?');
  const pageOf = db.prepare<{ user_id: string; before: number; q: string | null; limit: number }, ThreadRow>(
    `SELECT * FROM threads WHERE user_id = @user_id AND seq < @before
       AND (@q IS NULL OR title LIKE '%' || @q || '%' ESCAPE '\\')
     ORDER BY seq DESC LIMIT @limit`,
  );
  const insert = db.prepare(
    `INSERT INTO threads (id, user_id, workspace_id, title, suggestions_enabled, system_prompt, workflow_id, created_at, updated_at)
     VALUES (@id, @user_id, @workspace_id, @title, @suggestions_enabled, @system_prompt, @workflow_id, @now, @now)`,
  );
  const datasetsOf = db.prepare<[string], { dataset_id: string }>('SELECT dataset_id FROM thread_datasets WHERE thread_id = ? ORDER BY rowid');
  const clearDatasets = db.prepare('DELETE FROM thread_datasets WHERE thread_id = ?');
  const addDataset = db.prepare('INSERT OR IGNORE INTO thread_datasets (thread_id, dataset_id) VALUES (?, ?)');
  const remove = db.prepare('DELETE FROM threads WHERE id = ?');
  const touch = db.prepare('UPDATE threads SET updated_at = ? WHERE id = ?');

  const setDatasets = (threadId: string, ids: string[]) => {
    clearDatasets.run(threadId);
    for (const id of ids) addDataset.run(threadId, id);
  };

  const reads = {
    get: (id: string): ThreadRecord | undefined => {
      const row = byId.get(id);
      return row && decode(row);
    },
    datasetIds: (threadId: string) => datasetsOf.all(threadId).map((r) => r.dataset_id),
    page(userId: string, limit: number, cursor: string | undefined, q: string | undefined) {
      const before = cursor === undefined ? MAX_SEQ : decodeCursor(cursor);
      if (before === undefined) return undefined;
      const escaped = q ? q.replace(/[\\%_]/g, (c) => `\\${c}`) : null;
      return toPage(pageOf.all({ user_id: userId, before, q: escaped, limit: limit + 1 }).map(decode), limit);
    },
  };
  const writes = {
    insert(row: Omit<ThreadRecord, 'seq' | 'created_at' | 'updated_at'> & { dataset_ids: string[]; now: string }) {
      db.transaction(() => {
        insert.run({ ...row, suggestions_enabled: row.suggestions_enabled ? 1 : 0 });
        setDatasets(row.id, row.dataset_ids);
      })();
    },
    update(id: string, patch: ThreadPatch, now: string) {
      db.transaction(() => {
        const sets: string[] = [];
        const params: Record<string, unknown> = { id, now };
        for (const key of ['title', 'system_prompt', 'workflow_id'] as const) {
          if (patch[key] !== undefined) {
            sets.push(`${key} = @${key}`);
            params[key] = patch[key];
          }
        }
        if (patch.suggestions_enabled !== undefined) {
          sets.push('suggestions_enabled = @suggestions_enabled');
          params.suggestions_enabled = patch.suggestions_enabled ? 1 : 0;
        }
        db.prepare(`UPDATE threads SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run(params);
        if (patch.dataset_ids) setDatasets(id, patch.dataset_ids);
      })();
    },
    touch: (id: string, now: string) => touch.run(now, id),
    delete: (id: string) => remove.run(id).changes > 0,
  };
  return { ...reads, ...writes };
}

export type ThreadsRepo = ReturnType<typeof createThreadsRepo>;
