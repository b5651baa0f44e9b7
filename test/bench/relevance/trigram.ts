/**
 * The baseline for collections in scripts written without spaces (Chinese, Japanese, Thai…): what
 * someone would do with SQLite alone, knowing unicode61 cannot split them. The same passages in a
 * plain FTS5 `trigram` index, the query's letter runs cut into every trigram, each a phrase, all
 * OR-ed, ranked by bm25(). Runs shorter than three characters cannot be asked of a trigram index
 * and are left out.
 */
import type { Core } from '../../../main/boot.js';

const RUN = /[\p{L}\p{N}\p{M}]+/gu;

/** The query's distinct trigrams (code points, lowercased), as FTS5 phrases OR-ed; '' when it has none. */
export function trigramQuery(query: string): string {
  const grams = new Set<string>();
  for (const run of query.toLowerCase().match(RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
  }
  return [...grams].map((g) => `"${g.replaceAll('"', '""')}"`).join(' OR ');
}

/** A trigram index of the dataset's passages (by chunk id) and its ranking, best first; `seconds` is the time it took to build. */
export function trigramIndex(core: Core, kbId: string, limit: number): { seconds: number; rank: (query: string) => number[] } {
  const started = performance.now();
  core.db.exec(`DROP TABLE IF EXISTS temp.bench_trigram; CREATE VIRTUAL TABLE temp.bench_trigram USING fts5(text, tokenize = 'trigram')`);
  const insert = core.db.prepare<[number, string]>('INSERT INTO temp.bench_trigram (rowid, text) VALUES (?, ?)');
  const chunks = core.db.prepare<[string], { id: number; text: string }>('SELECT id, text FROM chunks WHERE kb_id = ? ORDER BY id');
  core.db.transaction(() => {
    for (const chunk of chunks.all(kbId)) insert.run(chunk.id, chunk.text);
  })();
  const seconds = (performance.now() - started) / 1000;
  const search = core.db.prepare<[string, number], { id: number }>('SELECT rowid AS id FROM temp.bench_trigram WHERE bench_trigram MATCH ? ORDER BY bm25(bench_trigram) LIMIT ?');
  return {
    seconds,
    rank: (query) => {
      const match = trigramQuery(query);
      return match === '' ? [] : search.all(match, limit).map((row) => row.id);
    },
  };
}
