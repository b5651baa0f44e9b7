import type { Db } from '../connection.js';

export type ThoughtKind = 'plan' | 'tool_call' | 'observation' | 'answer';

export interface ThoughtRow {
  id: string;
  message_id: string;
  dataset_id: string | null;
  step: number;
  kind: ThoughtKind;
  content: string;
  created_at: string;
}

export function createThoughtsRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO thoughts (id, message_id, dataset_id, step, kind, content, created_at) VALUES (@id, @message_id, @dataset_id, @step, @kind, @content, @created_at)',
  );
  const ofMessage = db.prepare<[string], ThoughtRow>('SELECT * FROM thoughts WHERE message_id = ? ORDER BY step, rowid');
  const ofMessages = (ids: string[]) =>
    ids.length === 0
      ? []
      : db.prepare<string[], ThoughtRow>(`SELECT * FROM thoughts WHERE message_id IN (${ids.map(() => '?').join(',')}) ORDER BY message_id, step, rowid`).all(...ids);

  return {
    insert: (row: ThoughtRow) => void insert.run(row),
    /** One answer's steps, in the order they happened. */
    ofMessage: (messageId: string) => ofMessage.all(messageId),
    /** The steps of several answers (a page of a thread), grouped by message. */
    byMessage(messageIds: string[]): Map<string, ThoughtRow[]> {
      const grouped = new Map<string, ThoughtRow[]>();
      for (const row of ofMessages(messageIds)) {
        const list = grouped.get(row.message_id) ?? [];
        list.push(row);
        grouped.set(row.message_id, list);
      }
      return grouped;
    },
  };
}

export type ThoughtsRepo = ReturnType<typeof createThoughtsRepo>;
