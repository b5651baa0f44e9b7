import type { Migration } from './index.js';

/**
 * Issue 31, item 5: each answer keeps how long it took, so the chat can show its speed under it
 * (tokens per second, time to first token) as it shows its tokens. Both are null for answers
 * written before, and for an answer that never produced a token (no first token).
 * Columns of `messages` rather than a table beside it (as 220 did for chunks): SQLite checks every
 * row of a STRICT table it adds a column to, but messages are few beside chunks (a few ms per
 * thousand), and an answer's figures belong with its usage, read with it on every page.
 */
export const m230_answer_timing: Migration = {
  version: 230,
  name: 'time to first token and total time of each answer',
  sql: `
ALTER TABLE messages ADD COLUMN first_token_ms INTEGER;  -- from the start of the answer to its first token
ALTER TABLE messages ADD COLUMN latency_ms INTEGER;      -- from the start of the answer to its end
`,
};
