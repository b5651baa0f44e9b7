/**
 * Accents off Latin, Greek and Cyrillic letters in PostgreSQL's full-text search, as SQLite's FTS5
 * does (`remove_diacritics 2`) and thread search does (message-search.ts foldAccents): a letter
 * whose canonical decomposition is one letter and marks becomes that letter. One character for
 * one, so PostgreSQL's built-in `translate()` does it (no `unaccent` extension, which not every
 * server has) and offsets into a chunk's text keep their meaning. Made from Unicode's decompositions
 * here, which the normalization stability policy keeps from changing.
 */
const RANGES: Array<[number, number]> = [
  [0x00c0, 0x024f], // Latin-1 Supplement, Latin Extended-A and -B
  [0x1e00, 0x1eff], // Latin Extended Additional (Vietnamese among others)
  [0x0370, 0x03ff], // Greek and Coptic
  [0x1f00, 0x1fff], // Greek Extended
  [0x0400, 0x04ff], // Cyrillic
];

function foldPairs(): { from: string; to: string } {
  let from = '';
  let to = '';
  for (const [lo, hi] of RANGES) {
    for (let cp = lo; cp <= hi; cp++) {
      const ch = String.fromCodePoint(cp);
      const parts = [...ch.normalize('NFD')];
      const base = parts[0];
      if (parts.length < 2 || base === undefined || !/\p{L}/u.test(base) || !parts.slice(1).every((m) => /\p{M}/u.test(m))) continue;
      from += ch;
      to += base;
    }
  }
  return { from, to };
}

const { from, to } = foldPairs();

/** `parley_fold(text)`: the SQL function folding accents, for the migration that creates it. */
export const FOLD_FUNCTION_SQL = `CREATE FUNCTION parley_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT translate(t, '${from}', '${to}') $$;`;

const folded = new Map([...from].map((ch, i) => [ch, [...to][i] as string]));

/** The same folding in JavaScript (a unit test holds it to thread search's foldAccents). */
export function foldLikePostgres(text: string): string {
  return [...text].map((ch) => folded.get(ch) ?? ch).join('');
}
