import type { z } from 'zod';
import type { Thought } from '../../../shared/events.js';
import type { SqlDb as Db } from '../sql.js';
import { isMissingReference } from '../errors.js';

export type ThoughtKind = z.output<typeof Thought>['kind'];

/** One step of an agentic answer as stored: the API's fields, with its message, dataset and order. */
export type ThoughtRecord = z.output<typeof Thought> & {
  message_id: string;
  dataset_id: string | null;
  step: number;
  created_at: string;
};

export function createThoughtsRepo(db: Db) {
  const insert = db.prepare(
    'INSERT INTO thoughts (id, message_id, dataset_id, step, kind, content, created_at) VALUES (@id, @message_id, @dataset_id, @step, @kind, @content, @created_at)',
  );
  const ofMessage = db.prepare<[string], ThoughtRecord>('SELECT * FROM thoughts WHERE message_id = ? ORDER BY step, rowid');
  const ofMessages = (ids: string[]) =>
    ids.length === 0
      ? []
      : db.prepare<string[], ThoughtRecord>(`SELECT * FROM thoughts WHERE message_id IN (${ids.map(() => '?').join(',')}) ORDER BY message_id, step, rowid`).all(...ids);

  const link = db.prepare('INSERT OR IGNORE INTO agent_call_datasets (message_id, dataset_id) SELECT ?, id FROM datasets WHERE id = ?');
  const linked = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM agent_call_datasets WHERE message_id = ?');

  const reads = {
    /** How many datasets of the call still exist: fewer than were linked means one was deleted. */
    linkedCount: (messageId: string) => linked.get(messageId)?.n ?? 0,
    /** One answer's steps, in the order they happened. */
    ofMessage: (messageId: string) => ofMessage.all(messageId),
    /** The steps of several answers (a page of a thread), grouped by message. */
    byMessage(messageIds: string[]): Map<string, ThoughtRecord[]> {
      const grouped = new Map<string, ThoughtRecord[]>();
      for (const row of ofMessages(messageIds)) {
        const list = grouped.get(row.message_id) ?? [];
        list.push(row);
        grouped.set(row.message_id, list);
      }
      return grouped;
    },
  };
  const writes = {
    /** Stores one step; false when its message or dataset was deleted meanwhile (the step goes with it). */
    insert(row: ThoughtRecord): boolean {
      try {
        insert.run(row);
        return true;
      } catch (error) {
        if (isMissingReference(error)) return false;
        throw error;
      }
    },
    /**
     * Records the datasets an agentic call draws on: each owns all the call's thoughts, so deleting
     * any one deletes them (trigger of migration 150). Answers how many were linked (datasets
     * deleted meanwhile are not).
     */
    linkCall(messageId: string, datasetIds: string[]): number {
      return db.transaction(() => datasetIds.reduce((n, id) => n + link.run(messageId, id).changes, 0))();
    },
  };
  return { ...reads, ...writes };
}

export type ThoughtsRepo = ReturnType<typeof createThoughtsRepo>;
