import type { Migration } from './index.js';

/**
 * Issue 31, expectation 1: files attached in the chat composer go to the thread's own dataset,
 * made on the first attach. `thread_id` names the thread a dataset belongs to (null: an ordinary
 * dataset, as every existing one stays). Deleting the thread deletes its dataset with it (the
 * service removes the stored bytes first; the cascade keeps the rows right whatever deletes the
 * thread). One dataset per thread: the partial unique index makes get-or-create safe.
 */
export const m270_thread_files: Migration = {
  version: 270,
  name: "a thread's own dataset for the files attached in it",
  sql: `
ALTER TABLE datasets ADD COLUMN thread_id TEXT REFERENCES threads(id) ON DELETE CASCADE;
CREATE UNIQUE INDEX datasets_thread ON datasets(thread_id) WHERE thread_id IS NOT NULL;
`,
};
