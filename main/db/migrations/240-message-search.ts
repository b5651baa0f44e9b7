import type { Db } from '../connection.js';
import { messageWords } from '../message-words.js';
import type { Migration, MigrationProgress } from './index.js';

/**
 * Thread search by message text (issue #31): a keyword index over messages, so `GET /threads?q=`
 * finds a thread by what was said in it, not only by its title.
 *
 * - Contentless with deletes (`contentless_delete`): the text stays in `messages` alone, and a
 *   message leaves the index by its rowid without the tokens it was indexed with being given
 *   again. Snippets are cut from `messages.content` in JS (main/db/repositories/message-search.ts).
 * - It reads `parley_message_words(content)` (main/db/message-words.ts): the text with ICU's words
 *   spaced out in scripts written without spaces, so Chinese or Japanese words inside a sentence
 *   are terms. No porter stemmer: the last word typed is matched as a prefix while the user types,
 *   and a stemmed prefix would miss (`runn*` never meets the stem `run`).
 * - An answer is indexed once it stops streaming, not on each of its appended pieces: while its
 *   status stays 'streaming' the update trigger's WHEN is false and it costs nothing more. A
 *   message resumed (Continue) leaves the index until it stops again.
 * - Rowid is `messages.seq` (its INTEGER PRIMARY KEY).
 */
export const m240_message_search: Migration = {
  version: 240,
  name: 'keyword index over message text',
  sql: `
CREATE VIRTUAL TABLE messages_fts USING fts5(
  text,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN new.status <> 'streaming' BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.seq, parley_message_words(new.content));
END;
CREATE TRIGGER messages_fts_unindex AFTER UPDATE OF content, status ON messages
WHEN old.status <> 'streaming' BEGIN
  DELETE FROM messages_fts WHERE rowid = old.seq;
END;
CREATE TRIGGER messages_fts_index AFTER UPDATE OF content, status ON messages
WHEN new.status <> 'streaming' BEGIN
  INSERT INTO messages_fts (rowid, text) VALUES (new.seq, parley_message_words(new.content));
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
WHEN old.status <> 'streaming' BEGIN
  DELETE FROM messages_fts WHERE rowid = old.seq;
END;
`,
  after: indexMessages,
  describe: ({ done, total }) => `Indexing messages for thread search: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`,
};

/** Messages read per batch: each batch is one progress report. */
const BATCH = 1000;

/** Indexes every message already written (but answers still streaming, which their end indexes), reporting `{ done, total }`. */
function indexMessages(db: Db, progress: MigrationProgress): void {
  const total = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
  const next = db.prepare<[number, number], { seq: number; content: string; status: string }>('SELECT seq, content, status FROM messages WHERE seq > ? ORDER BY seq LIMIT ?');
  // Rowids as BigInt: better-sqlite3 binds a JS number as REAL, which FTS5 refuses as a rowid.
  const index = db.prepare<[bigint, string]>('INSERT INTO messages_fts (rowid, text) VALUES (?, ?)');
  let after = 0;
  let done = 0;
  progress({ done, total });
  for (;;) {
    const rows = next.all(after, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) if (row.status !== 'streaming') index.run(BigInt(row.seq), messageWords(row.content));
    after = rows[rows.length - 1]!.seq;
    done += rows.length;
    progress({ done, total });
  }
}
