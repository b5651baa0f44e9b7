import type { Statement } from 'better-sqlite3';
import type { Db } from '../../connection.js';

export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** Words already stemmed, by any connection: the tokenizer is the same everywhere. */
const STEMS = new Map<string, string[]>();
const MAX_CACHED = 50_000;

/**
 * The index's terms for each word (FTS5's own tokenizer and stemmer, so exactly what the index
 * holds): usually one per word, none for a word of separators only. A per-connection scratch FTS5
 * table with the index's tokenizer is the only exact way to know them; made at first use.
 */
export function createStemmer(db: Db): (words: readonly string[]) => string[][] {
  let stemmer: { clear: Statement; insert: Statement<[number, string]>; read: Statement<[], { term: string; doc: number }> } | undefined;
  const stemStatements = () => {
    if (!stemmer) {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer USING fts5(word, tokenize = '${FTS_TOKENIZER}');
               CREATE VIRTUAL TABLE IF NOT EXISTS temp.parley_stemmer_terms USING fts5vocab(parley_stemmer, 'instance');`);
      stemmer = {
        clear: db.prepare('DELETE FROM temp.parley_stemmer'),
        insert: db.prepare('INSERT INTO temp.parley_stemmer (rowid, word) VALUES (?, ?)'),
        read: db.prepare('SELECT term, doc FROM temp.parley_stemmer_terms ORDER BY doc, "offset"'),
      };
    }
    return stemmer;
  };
  return (words) => {
    const out: string[][] = words.map((word) => STEMS.get(word) ?? []);
    const unknown = words.map((word, i) => [word, i] as const).filter(([word]) => !STEMS.has(word));
    if (unknown.length === 0) return out;
    const s = stemStatements();
    db.transaction(() => {
      s.clear.run();
      for (const [word, i] of unknown) s.insert.run(i, word);
      for (const row of s.read.all()) out[row.doc]?.push(row.term);
      s.clear.run();
    })();
    if (STEMS.size + unknown.length > MAX_CACHED) STEMS.clear();
    for (const [word, i] of unknown) STEMS.set(word, out[i] ?? []);
    return out;
  };
}
