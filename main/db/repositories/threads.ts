import type { ParsedInputOf } from '../../../shared/operations/define.js';
import type { Thread, updateThread } from '../../../shared/operations/threads.js';
import { isPostgres, type SqlDb as Db } from '../sql.js';
import { messageWords } from '../message-words.js';
import { decodeCursor, toPage } from './cursor.js';
import { foldAccents, messageMatch, messageTsQuery } from './message-search.js';

/**
 * Who wrote a thread's title: Parley's placeholder (the first message, or "New chat"), the title
 * written after its first answer, or the user (at creation or by a rename), which nothing overwrites.
 */
export type TitleSource = 'first_message' | 'generated' | 'user';

/** A thread as stored: the API's fields but its datasets (`datasetIds`), plus its owner, workspace, order and who wrote its title. */
export type ThreadRecord = Omit<Thread, 'dataset_ids'> & {
  seq: number;
  user_id: string;
  workspace_id: string;
  title_source: TitleSource;
};

/** The first of a thread's messages that matched a search, when its messages did. */
export interface ThreadHit {
  message_id: string;
  content: string;
}

/** The row as SQLite holds it: `suggestions_enabled` as 0/1. */
type ThreadRow = Omit<ThreadRecord, 'suggestions_enabled'> & { suggestions_enabled: number };

/** What `threads.update` may change, datasets included. */
export type ThreadPatch = Omit<ParsedInputOf<typeof updateThread>, 'id'>;

const decode = (row: ThreadRow): ThreadRecord => ({ ...row, suggestions_enabled: row.suggestions_enabled === 1 });

const MAX_SEQ = Number.MAX_SAFE_INTEGER;

/**
 * The threads (of `user_id`) whose messages match `match`, with the first message that did: SQLite's
 * FTS5 index (migration 240), or PostgreSQL's full-text search over `messages.words`.
 */
const MESSAGE_HITS = {
  sqlite: `SELECT m.thread_id, min(m.seq) AS seq FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
         JOIN threads o ON o.id = m.thread_id AND o.user_id = @user_id
       WHERE messages_fts MATCH @match GROUP BY m.thread_id`,
  postgres: `SELECT m.thread_id, min(m.seq) AS seq FROM messages m
         JOIN threads o ON o.id = m.thread_id AND o.user_id = @user_id
       WHERE m.words @@ to_tsquery('simple', @match) GROUP BY m.thread_id`,
};

/**
 * PostgreSQL cannot call shared/words.ts from a trigger as SQLite does: a message's words are
 * written here, for the caller's finished messages not indexed yet (new, or changed since: a
 * trigger clears them), just before their threads are searched.
 */
function postgresMessageWords(db: Db) {
  const unindexed = db.prepare<[string], { seq: number; content: string }>(
    `SELECT m.seq, m.content FROM messages m JOIN threads t ON t.id = m.thread_id
     WHERE t.user_id = ? AND m.words IS NULL AND m.status <> 'streaming'`,
  );
  const write = db.prepare("UPDATE messages SET words = to_tsvector('simple', ?) WHERE seq = ?");
  return (userId: string) => {
    const rows = unindexed.all(userId);
    if (rows.length > 0) db.transaction(() => rows.forEach((row) => write.run(foldAccents(messageWords(row.content)), row.seq)))();
  };
}

export function createThreadsRepo(db: Db) {
  const postgres = isPostgres(db);
  const indexMessages = postgres ? postgresMessageWords(db) : () => {};
  const byId = db.prepare<[string], ThreadRow>('SELECT * FROM threads WHERE id = ?');
  const pageOf = db.prepare<{ user_id: string; before: number; q: string | null; limit: number }, ThreadRow>(
    `SELECT * FROM threads WHERE user_id = @user_id AND seq < @before
       AND (@q IS NULL OR title LIKE '%' || @q || '%' ESCAPE '\\')
     ORDER BY seq DESC LIMIT @limit`,
  );
  // Title or message text (migration 240): threads whose title holds `q`, or one of whose messages
  // matches its words; with the first message that matched when the title did not (the title says
  // why it was found). Only the caller's threads' messages are looked at, joined before the page is cut.
  const pageMatching = db.prepare<{ user_id: string; before: number; q: string; match: string; limit: number }, ThreadRow & { hit_id: string | null; hit_content: string | null }>(
    `WITH hits AS (
       ${postgres ? MESSAGE_HITS.postgres : MESSAGE_HITS.sqlite}
     )
     SELECT t.*, m.id AS hit_id, m.content AS hit_content FROM threads t
       LEFT JOIN hits h ON h.thread_id = t.id
       LEFT JOIN messages m ON m.seq = h.seq AND NOT t.title LIKE '%' || @q || '%' ESCAPE '\\'
     WHERE t.user_id = @user_id AND t.seq < @before
       AND (t.title LIKE '%' || @q || '%' ESCAPE '\\' OR h.seq IS NOT NULL)
     ORDER BY t.seq DESC LIMIT @limit`,
  );
  const insert = db.prepare(
    `INSERT INTO threads (id, user_id, workspace_id, title, title_source, suggestions_enabled, system_prompt, temperature, max_tokens, workflow_id, created_at, updated_at)
     VALUES (@id, @user_id, @workspace_id, @title, @title_source, @suggestions_enabled, @system_prompt, @temperature, @max_tokens, @workflow_id, @now, @now)`,
  );
  // Only while Parley's placeholder stands and no other answer of the thread has completed: a
  // later answer, a retry, a Continue or a branch of a thread that had its first answer claims nothing.
  const claimTitle = db.prepare<{ id: string; message_id: string }>(
    `UPDATE threads SET title_source = 'generated'
     WHERE id = @id AND title_source = 'first_message'
       AND NOT EXISTS (SELECT 1 FROM messages WHERE thread_id = @id AND role = 'assistant' AND status = 'complete' AND id != @message_id)`,
  );
  // A rename while the title was being written wins (it set the source to 'user').
  const writeTitle = db.prepare<{ id: string; title: string; now: string }>(
    `UPDATE threads SET title = @title, updated_at = @now WHERE id = @id AND title_source = 'generated'`,
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
      const match = q ? (postgres ? messageTsQuery(q) : messageMatch(q)) : null;
      if (escaped === null || match === null) {
        return toPage<ThreadRecord & { hit?: ThreadHit }>(pageOf.all({ user_id: userId, before, q: escaped, limit: limit + 1 }).map(decode), limit);
      }
      indexMessages(userId);
      const rows = pageMatching.all({ user_id: userId, before, q: escaped, match, limit: limit + 1 });
      return toPage(
        rows.map(({ hit_id, hit_content, ...row }) => ({ ...decode(row), ...(hit_id !== null && hit_content !== null ? { hit: { message_id: hit_id, content: hit_content } } : {}) })),
        limit,
      );
    },
  };
  const writes = {
    /**
     * `title_source` defaults to 'user': a title given is the user's unless Parley says it wrote it.
     * Sampling left out is the model's default.
     */
    insert(
      row: Omit<ThreadRecord, 'seq' | 'created_at' | 'updated_at' | 'title_source' | 'temperature' | 'max_tokens'> &
        Partial<Pick<ThreadRecord, 'temperature' | 'max_tokens'>> & { title_source?: TitleSource; dataset_ids: string[]; now: string },
    ) {
      db.transaction(() => {
        insert.run({ ...row, temperature: row.temperature ?? null, max_tokens: row.max_tokens ?? null, title_source: row.title_source ?? 'user', suggestions_enabled: row.suggestions_enabled ? 1 : 0 });
        setDatasets(row.id, row.dataset_ids);
      })();
    },
    update(id: string, patch: ThreadPatch, now: string) {
      db.transaction(() => {
        const sets: string[] = [];
        const params: Record<string, unknown> = { id, now };
        for (const key of ['title', 'system_prompt', 'temperature', 'max_tokens', 'workflow_id'] as const) {
          if (patch[key] !== undefined) {
            sets.push(`${key} = @${key}`);
            params[key] = patch[key];
          }
        }
        // A title the user gives is theirs: none is written over it.
        if (patch.title !== undefined) sets.push(`title_source = 'user'`);
        if (patch.suggestions_enabled !== undefined) {
          sets.push('suggestions_enabled = @suggestions_enabled');
          params.suggestions_enabled = patch.suggestions_enabled ? 1 : 0;
        }
        db.prepare(`UPDATE threads SET ${[...sets, 'updated_at = @now'].join(', ')} WHERE id = @id`).run(params);
        if (patch.dataset_ids) setDatasets(id, patch.dataset_ids);
      })();
    },
    touch: (id: string, now: string) => touch.run(now, id),
    /**
     * Takes the writing of a thread's title for the answer `messageId`: true once, for the thread's
     * first completed answer, while its title is Parley's placeholder (never when the user named it).
     */
    claimTitle: (id: string, messageId: string) => claimTitle.run({ id, message_id: messageId }).changes > 0,
    /** Writes the title claimed by `claimTitle`; false when the user renamed the thread meanwhile (or it is gone). */
    writeTitle: (id: string, title: string, now: string) => writeTitle.run({ id, title, now }).changes > 0,
    /** Adds one dataset to the thread's, keeping the others (nothing when it is there already). */
    linkDataset: (threadId: string, datasetId: string) => addDataset.run(threadId, datasetId),
    delete: (id: string) => remove.run(id).changes > 0,
  };
  return { ...reads, ...writes };
}

export type ThreadsRepo = ReturnType<typeof createThreadsRepo>;
