import type { Migration } from './index.js';

/**
 * Issue 31, expectation 1: images sent with a chat message. Kept with the message so a later turn,
 * a retry, a Continue or a reload still has them. The bytes are in the database, not under the data
 * directory: an image is at most 5 MB and a message has at most 4, they go with their message by
 * the foreign key (a thread's deletion, in its batches, takes them in the same transactions, with
 * no file left behind by a crash between the two), and a backup of the database holds them. Nothing
 * to backfill: no message had images before.
 */
export const m280_message_images: Migration = {
  version: 280,
  name: 'images sent with chat messages',
  sql: `
CREATE TABLE message_images (
  id TEXT PRIMARY KEY,                -- img_…
  message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,          -- order within the message, from 0
  name TEXT NOT NULL,                 -- the file name, the image's alt text
  media_type TEXT NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/webp', 'image/gif')),
  size INTEGER NOT NULL,              -- bytes
  data BLOB NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (message_id, position)
) STRICT;
`,
};
