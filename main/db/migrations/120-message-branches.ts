import type { Migration } from './index.js';

/**
 * Branches in a thread: every message names the message it follows (`parent_id`). Editing a
 * question or regenerating an answer appends a new message whose parent is earlier in the thread,
 * so the old answer is kept and a model sees only the branch it continues. Existing threads are
 * one straight line: each message follows the one before it.
 */
export const m120_message_branches: Migration = {
  version: 120,
  name: 'message branches (parent_id)',
  sql: `
ALTER TABLE messages ADD COLUMN parent_id TEXT;
UPDATE messages SET parent_id = (
  SELECT prev.id FROM messages AS prev
  WHERE prev.thread_id = messages.thread_id AND prev.seq < messages.seq
  ORDER BY prev.seq DESC LIMIT 1
);
`,
};
