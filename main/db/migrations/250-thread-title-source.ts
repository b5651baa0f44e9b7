import type { Migration } from './index.js';

/**
 * Issue 31, expectation 2: a thread's title is written for it after its first answer, unless the
 * user named it. `title_source` says who wrote the title: Parley's placeholder (`first_message`:
 * the first message's first line, or "New chat"), the title written after the first answer
 * (`generated`), or the user (`user`: given at creation or by a rename), which nothing overwrites.
 * Backfill: a thread whose title is its first message's first line (whole, or cut with "…" as
 * chat/send.ts cuts it) or "New chat" was named by Parley; any other title was the user's.
 */
export const m250_thread_title_source: Migration = {
  version: 250,
  name: 'who wrote each thread title',
  sql: `
ALTER TABLE threads ADD COLUMN title_source TEXT NOT NULL DEFAULT 'user'
  CHECK (title_source IN ('first_message', 'generated', 'user'));
WITH firsts AS (
  SELECT thread_id, trim(content, ' ' || char(9, 10, 13)) AS c FROM messages
  WHERE seq IN (SELECT MIN(seq) FROM messages WHERE role = 'user' GROUP BY thread_id)
), lines AS (
  SELECT thread_id,
         CASE WHEN instr(c, char(10)) > 0 THEN rtrim(substr(c, 1, instr(c, char(10)) - 1), ' ' || char(9, 13)) ELSE c END AS line
  FROM firsts
)
UPDATE threads SET title_source = 'first_message'
WHERE title = 'New chat'
   OR EXISTS (
     SELECT 1 FROM lines l WHERE l.thread_id = threads.id
       AND (l.line = threads.title
            OR (threads.title LIKE '%…' AND length(threads.title) > 1
                AND substr(l.line, 1, length(threads.title) - 1) = substr(threads.title, 1, length(threads.title) - 1)))
   );
`,
};
