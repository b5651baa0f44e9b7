import { z } from 'zod';
import type { Message } from '../../../shared/events.js';
import type { SqlDb as Db } from '../sql.js';
import { decodeCursor, toPage } from './cursor.js';
import { jsonColumnOr } from './decode.js';

/** A message as stored: the API's fields (its routing and citations decoded), its usage and error kept as columns. */
export type MessageRecord = Pick<Message, 'id' | 'thread_id' | 'parent_id' | 'role' | 'content' | 'status' | 'model_id' | 'routing' | 'citations' | 'created_at' | 'updated_at'> & {
  seq: number;
  input_tokens: number | null;
  output_tokens: number | null;
  /** From the start of the answer to its first token, and to its end (migration 230); null before then, and for older answers. */
  first_token_ms: number | null;
  latency_ms: number | null;
  error_code: string | null;
  error_detail: string | null;
};

/** The row as SQLite holds it: routing and citations as JSON text. */
type MessageRow = Omit<MessageRecord, 'routing' | 'citations'> & { routing: string | null; citations: string };

// Routing and citations only describe an answer already written: unreadable, they read as none
// (the answer's text stays readable). Only the shape a reader walks is checked, so rows written by
// earlier versions keep every field they have.
const Described = z.record(z.string(), z.unknown());
const decode = (row: MessageRow): MessageRecord => ({
  ...row,
  routing: row.routing === null ? null : (jsonColumnOr(Described.nullable(), row.routing, null) as MessageRecord['routing']),
  citations: jsonColumnOr(z.array(Described), row.citations, []) as MessageRecord['citations'],
});
const one = (row: MessageRow | undefined): MessageRecord | undefined => row && decode(row);
type Routing = NonNullable<MessageRecord['routing']>;

/** A message of a branch as a model sees it: its text cut to the budget it was read with. */
export type BranchMessage = Pick<MessageRecord, 'id' | 'role' | 'content'>;

/** What each message costs the budget besides its text, in characters (its role and separators). */
export const BRANCH_MESSAGE_OVERHEAD_CHARS = 16;
/** Messages deleted per transaction when a thread goes: each batch is a short pause, never seconds. */
export const DELETE_BATCH = 500;

/** What the end of an answer stores, whatever the end is. */
export type MessageFinish = Pick<MessageRecord, 'content' | 'status' | 'citations' | 'input_tokens' | 'output_tokens' | 'error_code' | 'error_detail'> &
  Partial<Pick<MessageRecord, 'first_token_ms' | 'latency_ms'>> & {
    now: string;
  };

/** `writer`: the instance whose answers these are (migration 300's `written_by`), if any. */
export function createMessagesRepo(db: Db, writer: string | null = null) {
  const byId = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE id = ?');
  const pageOf = db.prepare<[string, number, number], MessageRow>('SELECT * FROM messages WHERE thread_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  const history = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE thread_id = ? ORDER BY seq');
  const insert = db.prepare(
    `INSERT INTO messages (id, thread_id, parent_id, role, content, status, model_id, routing, written_by, created_at, updated_at)
     VALUES (@id, @thread_id, @parent_id, @role, @content, @status, @model_id, @routing, @written_by, @now, @now)`,
  );
  // The branch ending at @last, newest first, walked by parent until the texts read pass @budget
  // characters: only the messages a model could be shown are read, however long the thread.
  // Each text is cut to @budget (a longer one could only be shown cut, or not at all); @depth
  // guards against a cycle of parents.
  const branch = db.prepare<{ thread: string; last: string; budget: number; overhead: number; depth: number }, BranchMessage>(
    `WITH RECURSIVE chain(id, parent_id, depth, total) AS (
       SELECT id, parent_id, 0, length(content) + @overhead FROM messages WHERE id = @last AND thread_id = @thread
       UNION ALL
       SELECT m.id, m.parent_id, chain.depth + 1, chain.total + length(m.content) + @overhead
       FROM chain JOIN messages AS m ON m.id = chain.parent_id
       WHERE chain.total < @budget AND chain.depth < @depth AND m.thread_id = @thread
     )
     SELECT m.id, m.role, substr(m.content, 1, @budget) AS content FROM chain JOIN messages AS m ON m.id = chain.id ORDER BY chain.depth DESC`,
  );
  const inThread = db.prepare<[string, string], { one: number }>('SELECT 1 AS one FROM messages WHERE id = ? AND thread_id = ?');
  const streamingOf = db.prepare<[string], { id: string }>("SELECT id FROM messages WHERE thread_id = ? AND status = 'streaming'");
  const deleteSome = db.prepare('DELETE FROM messages WHERE seq IN (SELECT seq FROM messages WHERE thread_id = ? ORDER BY seq DESC LIMIT ?)');
  const newest = db.prepare<[string], MessageRow>('SELECT * FROM messages WHERE thread_id = ? ORDER BY seq DESC LIMIT 1');
  // Only an answer that has ended without completing may be taken up again.
  const resume = db.prepare(
    `UPDATE messages SET status = 'streaming', model_id = ?, routing = ?, written_by = ?, error_code = NULL, error_detail = NULL, updated_at = ?
     WHERE id = ? AND role = 'assistant' AND status IN ('error', 'cancelled', 'interrupted')`,
  );
  // Appends: rewriting the whole text on every save would cost a long answer its whole length each time.
  const append = db.prepare("UPDATE messages SET content = content || ?, updated_at = ? WHERE id = ? AND status = 'streaming'");
  const setModel = db.prepare('UPDATE messages SET model_id = ?, routing = ?, updated_at = ? WHERE id = ?');
  const finish = db.prepare(
    `UPDATE messages SET content = @content, status = @status, citations = @citations,
       input_tokens = @input_tokens, output_tokens = @output_tokens, first_token_ms = @first_token_ms, latency_ms = @latency_ms,
       error_code = @error_code, error_detail = @error_detail, updated_at = @now
     WHERE id = @id AND status = 'streaming'`,
  );
  // Answers whose writer is gone: a process stopped (or presumed dead) with them half written.
  const interrupt = db.prepare(
    `UPDATE messages SET status = 'interrupted', error_code = 'unavailable', error_detail = ?, updated_at = ?
     WHERE status = 'streaming' AND (written_by IS NULL OR written_by NOT IN (SELECT id FROM instances))`,
  );

  const reads = {
    get: (id: string) => one(byId.get(id)),
    page(threadId: string, limit: number, cursor: string | undefined) {
      const after = cursor === undefined ? 0 : decodeCursor(cursor);
      if (after === undefined) return undefined;
      return toPage(pageOf.all(threadId, after, limit + 1).map(decode), limit);
    },
    history: (threadId: string) => history.all(threadId).map(decode),
    /**
     * The branch that ends at `lastId`, oldest first, as far back as `budgetChars` of text reaches
     * (the message that crosses it included): what a model with that much context could be shown.
     */
    branch: (threadId: string, lastId: string | null, budgetChars: number): BranchMessage[] =>
      lastId === null
        ? []
        : branch.all({ thread: threadId, last: lastId, budget: Math.max(1, Math.floor(budgetChars)), overhead: BRANCH_MESSAGE_OVERHEAD_CHARS, depth: 1_000_000 }),
    /** Whether message `id` is in thread `threadId` (without reading its text). */
    inThread: (id: string, threadId: string) => inThread.get(id, threadId) !== undefined,
    /** The ids of a thread's answers being written now. */
    streamingIn: (threadId: string) => streamingOf.all(threadId).map((r) => r.id),
    /** The thread's newest message, whatever its branch: what a new message follows. */
    newest: (threadId: string) => one(newest.get(threadId)),
  };
  const writes = {
    /** Deletes up to `limit` of a thread's messages (newest first, so no branch is left without its end); answers how many went. */
    deleteSome: (threadId: string, limit = DELETE_BATCH) => deleteSome.run(threadId, limit).changes,
    insert: (row: Pick<MessageRecord, 'id' | 'thread_id' | 'parent_id' | 'role' | 'content' | 'status' | 'model_id' | 'routing'> & { now: string }) =>
      insert.run({ ...row, routing: row.routing === null ? null : JSON.stringify(row.routing), written_by: row.status === 'streaming' ? writer : null }),
    /** An ended, unfinished answer streams again (to be continued); false if it is not one. */
    resume: (id: string, modelId: string, routing: Routing, now: string) => resume.run(modelId, JSON.stringify(routing), writer, now, id).changes > 0,
    /** Appends text streamed since the last save; a finished message is never changed by a late save. */
    append: (id: string, text: string, now: string) => append.run(text, now, id).changes > 0,
    setModel: (id: string, modelId: string, routing: Routing, now: string) => setModel.run(modelId, JSON.stringify(routing), now, id),
    finish: (id: string, f: MessageFinish) => finish.run({ id, first_token_ms: null, latency_ms: null, ...f, citations: JSON.stringify(f.citations) }).changes > 0,
    /** Answers left streaming by an instance that is gone (at start-up: the last run's). */
    markInterrupted: (detail: string, now: string) => interrupt.run(detail, now).changes,
  };
  return { ...reads, ...writes };
}

export type MessagesRepo = ReturnType<typeof createMessagesRepo>;
