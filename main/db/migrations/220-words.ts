import type { Db } from '../connection.js';
import { hasSpacelessScript, indexedText } from '../../../shared/words.js';
import type { Migration, MigrationProgress } from './index.js';

/**
 * Words in every script (issue #34): the keyword index reads ICU's words for text in scripts
 * written without spaces (Han, Kana, Thai, Lao, Khmer, Myanmar), where unicode61 alone made a
 * whole sentence one token and nothing inside it could be found.
 *
 * - `chunk_words` holds what the index read for a chunk whose text holds such a script:
 *   `indexedText(text)` (shared/words.ts), the text with spaces between ICU's words. Every other
 *   chunk (English, German, Russian…) has no row and the index reads its `text`, exactly as before.
 *   The words are stored, not recomputed, so FTS5's 'delete' always gets exactly the tokens that
 *   were inserted, even if a later ICU (an Electron update) segments the same text differently.
 * - A table beside `chunks` rather than a column of it: adding a column to a STRICT table makes
 *   SQLite check every row (about 4 ms per 1,000 chunks here: seconds at a million), and an
 *   English-only database must migrate in milliseconds.
 * - The chunks triggers feed the index the chunk's words where it has them, its text otherwise;
 *   so a chunk's words are written before the chunk (the chunks repository, rows.ts). Words
 *   written, changed or removed for a chunk already indexed re-index it (the triggers on
 *   `chunk_words`): that is how the step below re-indexes chunks indexed before.
 * - Finding the chunks indexed before: a chunk holding such a script holds a term starting with
 *   one of its characters (unicode61 kept the whole run as one term) unless every run of it starts
 *   with another script's letter or a digit (`2024年`); FTS5's vocabulary answers "any term in
 *   these ranges?" by seeking, so a database without any (English only) migrates without reading
 *   its chunks (16 ms at a million). When there is one, every chunk is read and tested in JS
 *   (SQLite's GLOB with character classes is three times slower), and those holding such a script
 *   are segmented: ICU is most of the cost (about 0.6 ms of CPU per 300-character passage here).
 * - FTS5 reads `chunks.text` itself only for its 'rebuild' and 'integrity-check' (rank 1)
 *   commands and snippet(): none of them may be used on this index any more (Parley makes its
 *   snippets itself, main/search/snippets.ts), as they would see a Chinese sentence as one token.
 */
export const m220_words: Migration = {
  version: 220,
  name: 'words of scripts written without spaces in the keyword index',
  sql: `
CREATE TABLE chunk_words (
  id INTEGER PRIMARY KEY,   -- the chunk's id
  words TEXT NOT NULL
) STRICT;

DROP TRIGGER chunks_fts_insert;
DROP TRIGGER chunks_fts_delete;
DROP TRIGGER chunks_fts_update;

CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, coalesce((SELECT words FROM chunk_words WHERE id = new.id), new.text));
END;
CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, coalesce((SELECT words FROM chunk_words WHERE id = old.id), old.text));
  DELETE FROM chunk_words WHERE id = old.id;
END;
CREATE TRIGGER chunks_fts_update AFTER UPDATE OF id, text ON chunks BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, coalesce((SELECT words FROM chunk_words WHERE id = old.id), old.text));
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, coalesce((SELECT words FROM chunk_words WHERE id = new.id), new.text));
END;

-- Words given to a chunk already indexed (not yet inserted: nothing to do, its insert reads them).
CREATE TRIGGER chunk_words_insert AFTER INSERT ON chunk_words
WHEN EXISTS (SELECT 1 FROM chunks WHERE id = new.id) BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) SELECT 'delete', id, text FROM chunks WHERE id = new.id;
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.words);
END;
CREATE TRIGGER chunk_words_update AFTER UPDATE OF words ON chunk_words
WHEN EXISTS (SELECT 1 FROM chunks WHERE id = new.id) BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.words);
  INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.words);
END;
-- A chunk's words taken away while it stays (a deleted chunk's go after it, when it no longer exists).
CREATE TRIGGER chunk_words_delete AFTER DELETE ON chunk_words
WHEN EXISTS (SELECT 1 FROM chunks WHERE id = old.id) BEGIN
  INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.words);
  INSERT INTO chunks_fts (rowid, text) SELECT id, text FROM chunks WHERE id = old.id;
END;
`,
  after: reindexWords,
  describe: ({ done, total }) => `Re-indexing words in other scripts: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} passages`,
};

/**
 * Where the terms of these scripts start, as [from, to) code point ranges (FTS5 orders terms by
 * their UTF-8 bytes, which is code point order): Thai and Lao; Myanmar; Khmer; CJK radicals to
 * the end of the unified ideographs (kana and CJK punctuation inside); compatibility ideographs;
 * kana supplements; the supplementary ideographs.
 */
const TERM_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0e00, 0x0f00],
  [0x1000, 0x10a0],
  [0x1780, 0x1800],
  [0x2e80, 0xa000],
  [0xf900, 0xfb00],
  [0x1b000, 0x1b300],
  [0x20000, 0x32400],
];

/** Chunks read per batch: each batch is one progress report. */
const BATCH = 500;

/** Whether the keyword index holds any term starting with a character of a script written without spaces. */
function indexHoldsSpacelessTerms(db: Db): boolean {
  // The vocabulary table is created by migration 050 on every database that has chunks.
  const seek = db.prepare<[string, string], { term: string }>('SELECT term FROM chunks_vocab WHERE term >= ? AND term < ? LIMIT 1');
  return TERM_RANGES.some(([from, to]) => seek.get(String.fromCodePoint(from), String.fromCodePoint(to)) !== undefined);
}

/** Re-indexes the words of every chunk holding a script written without spaces, reporting `{ done, total }` chunks read. */
function reindexWords(db: Db, progress: MigrationProgress): void {
  if (!indexHoldsSpacelessTerms(db)) return;
  const total = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
  const next = db.prepare<[bigint, number], { id: number; text: string }>('SELECT id, text FROM chunks WHERE id > ? ORDER BY id LIMIT ?');
  // The insert trigger takes the old tokens out (read from `text`, as they were indexed) and puts ICU's words in.
  const setWords = db.prepare<[number, string]>('INSERT INTO chunk_words (id, words) VALUES (?, ?)');
  let after = -1n;
  let done = 0;
  progress({ done, total });
  for (;;) {
    const rows = next.all(after, BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (!hasSpacelessScript(row.text)) continue;
      const words = indexedText(row.text);
      if (words !== null) setWords.run(row.id, words);
    }
    after = BigInt(rows[rows.length - 1]!.id);
    done += rows.length;
    progress({ done, total });
  }
}
