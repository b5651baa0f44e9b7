import type { Db } from '../connection.js';
import { decodeCursor, toPage } from './cursor.js';

export interface MessageRow {
  seq: number;
  id: string;
  thread_id: string;
  /** The message this one follows in its branch; null for a thread's first message. */
  parent_id: string | null;
  role: 'user' | 'assistant';
  content: string;
  status: 'streaming' | 'complete' | 'error' | 'cancelled' | 'interrupted';
  model_id: string | null;
  routing: string | null;
  citations: string;
  input_tokens: number | null;
  output_tokens: number | null;
  error_code: string | null;
  error_detail: string | null;
  created_at: string;
  updated_at: string;
}

/** What the end of an answer stores, whatever the end is. */
export type MessageFinish = Pick<MessageRow, 'content' | 'status' | 'citations' | 'input_tokens' | 'output_tokens' | 'error_code' | 'error_detail'> & {
  now: string;
};

export function createMessagesRepo(db: Db) {
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const pageOf = db.prepare<[string, number, number], MessageRow>('SELECT * FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  const history = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE thread_id = ? ORDER BY seq');
  const insert = db.prepare(
    `INSERT INTO messages (id, thread_id, parent_id, role, content, status, model_id, routing, created_at, updated_at)
     VALUES (@id, @thread_id, @parent_id, @role, @content, @status, @model_id, @routing, @now, @now)`,
  );
  const newest = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE thread_id = ? ORDER BY seq DESC LIMIT 1');
  // Only an answer that has ended without completing may be taken up again.
  const resume = db.prepare(
    `UPDATE messages SET status = 'streaming', model_id = ?, routing = ?, error_code = NULL, error_detail = NULL, updated_at = ?
     WHERE id = ? AND role = 'assistant' AND status IN ('error', 'cancelled', 'interrupted')`,
  );
  const flush = db.prepare("UPDATE messages SET content = ?, updated_at = ? WHERE id = ? AND status = 'streaming'");
  const setModel = db.prepare('UPDATE messages SET model_id = ?, routing = ?, updated_at = ? WHERE id = ?');
  const finish = db.prepare(
    `UPDATE messages SET content = @content, status = @status, citations = @citations,
       input_tokens = @input_tokens, output_tokens = @output_tokens, error_code = @error_code, error_detail = @error_detail,
       updated_at = @now
     WHERE id = @id AND status = 'streaming'`,
  );
  const interrupt = db.prepare(
    "UPDATE messages SET status = 'interrupted', error_code = 'unavailable', error_detail = ?, updated_at = ? WHERE status = 'streaming'",
  );

  return {
    get: (id: string) => byId.get(id),
    page(threadId: string, limit: number, cursor: string | undefined) {
      const after = cursor === undefined ? 0 : decodeCursor(cursor);
      if (after === undefined) return undefined;
      return toPage(pageOf.all(threadId, after, limit + 1), limit);
    },
    history: (threadId: string) => history.all(threadId),
    /** The thread's newest message, whatever its branch: what a new message follows. */
    newest: (threadId: string) => newest.get(threadId),
    insert: (row: {
      id: string;
      thread_id: string;
      parent_id: string | null;
      role: 'user' | 'assistant';
      content: string;
      status: MessageRow['status'];
      model_id: string | null;
      routing: string | null;
      now: string;
    }) => insert.run(row),
    /** An ended, unfinished answer streams again (to be continued); false if it is not one. */
    resume: (id: string, modelId: string, routing: string, now: string) => resume.run(modelId, routing, now, id).changes > 0,
    /** Saves the text streamed so far; a finished message is never overwritten by a late flush. */
    flush: (id: string, content: string, now: string) => flush.run(content, now, id).changes > 0,
    setModel: (id: string, modelId: string, routing: string, now: string) => setModel.run(modelId, routing, now, id),
    finish: (id: string, f: MessageFinish) => finish.run({ id, ...f }).changes > 0,
    /** At start-up: answers that were streaming when the app stopped. */
    markInterrupted: (detail: string, now: string) => interrupt.run(detail, now).changes,
  };
}

export type MessagesRepo = ReturnType<typeof createMessagesRepo>;
