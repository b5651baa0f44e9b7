/**
 * The repositories' SQL, written for SQLite, in PostgreSQL's dialect. The repositories keep one
 * text per statement; what differs between the two engines in the SQL they use is small and
 * mechanical, and is rewritten here once per statement (statements are prepared once):
 * - parameters: `?` and `@name` → `$1…` (a named one keeps its number wherever it recurs);
 * - `INSERT OR IGNORE` → `INSERT … ON CONFLICT DO NOTHING`;
 * - `json_each(x)` → `json_array_elements_text(x::json)` (its column is `value` in both);
 * - two-argument `min(a, b)` / `max(a, b)` → `LEAST` / `GREATEST`;
 * - `LIKE` → `ILIKE` (SQLite's LIKE ignores case);
 * - `<param> IS NULL` → a boolean parameter computed from the value (PostgreSQL cannot type a
 *   parameter seen only there).
 * What is not mechanical (full-text search, vectors) has statements of its own per dialect.
 */
export interface Translated {
  text: string;
  /** For named parameters: the name of each, in the order they are numbered; null for positional ones. */
  names: string[] | null;
  /**
   * What each `$k` of `text` is bound to: a given parameter (by its number from 0), or whether one is
   * null — `@p IS NULL` is decided here, since PostgreSQL cannot type a parameter seen only there.
   */
  sources: Source[];
}

export type Source = { value: number } | { isNull: number; not: boolean };

interface Piece {
  code: boolean;
  text: string;
}

/** Splits `sql` into code and what must not be rewritten: string literals, quoted names, comments. */
function pieces(sql: string): Piece[] {
  const out: Piece[] = [];
  let code = '';
  let i = 0;
  const flush = () => {
    if (code) out.push({ code: true, text: code });
    code = '';
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === c) {
          if (sql[j + 1] === c) j += 2;
          else break;
        } else j++;
      }
      flush();
      out.push({ code: false, text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const j = end === -1 ? sql.length : end;
      flush();
      out.push({ code: false, text: sql.slice(i, j) });
      i = j;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      const j = end === -1 ? sql.length : end + 2;
      flush();
      out.push({ code: false, text: sql.slice(i, j) });
      i = j;
    } else {
      code += c;
      i++;
    }
  }
  flush();
  return out;
}

/** `min(a, b)` → `LEAST(a, b)`, `max(a, b)` → `GREATEST(a, b)`; one-argument aggregates stay. */
function scalarMinMax(sql: string): string {
  const re = /\b(min|max)\s*\(/gi;
  let out = '';
  let last = 0;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    let depth = 0;
    let commas = 0;
    let j = m.index + m[0].length;
    for (; j < sql.length; j++) {
      const c = sql[j];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        depth--;
      } else if (c === ',' && depth === 0) commas++;
    }
    if (commas > 0) {
      out += sql.slice(last, m.index) + (m[1]!.toLowerCase() === 'min' ? 'LEAST(' : 'GREATEST(');
      last = m.index + m[0].length;
    }
  }
  return out + sql.slice(last);
}

export function translate(sql: string): Translated {
  const names: string[] = [];
  let positional = 0;
  let named = false;
  const parts = pieces(sql).map((piece) => {
    if (!piece.code) return piece.text;
    return piece.text.replace(/\?|(?<![:\w@$])[@$:]([A-Za-z_]\w*)/g, (match, name: string | undefined) => {
      if (match === '?') return `$${++positional}`;
      // `::type` casts are PostgreSQL's, `$1` already numbered: neither is a named parameter.
      if (name === undefined) return match;
      named = true;
      let at = names.indexOf(name);
      if (at === -1) at = names.push(name) - 1;
      return `$${at + 1}`;
    });
  });
  let text = parts.join('');
  if (named && positional > 0) throw new Error(`A statement mixes ? and named parameters: ${sql}`);
  // Each rewrite below is on code only: literals were split off above and are put back unchanged.
  const rewrite = (f: (code: string) => string) => {
    const again = pieces(text);
    text = again.map((p) => (p.code ? f(p.text) : p.text)).join('');
  };
  // `$n IS [NOT] NULL` → a parameter of its own, the answer computed from the value (values()).
  const sources: Source[] = [];
  rewrite((code) =>
    code.replace(/\$(\d+)\s+IS\s+(NOT\s+)?NULL\b/gi, (_match, n: string, not: string | undefined) => {
      sources.push({ isNull: Number(n) - 1, not: not !== undefined });
      return `\uE000${sources.length - 1}\uE000`;
    }),
  );
  // Numbered again in order of appearance: a parameter left only in null checks is not sent at all.
  const checks = sources.splice(0);
  const numberOf = new Map<string, number>();
  rewrite((code) =>
    code.replace(/\$(\d+)|\uE000(\d+)\uE000/g, (_match, param: string | undefined, check: string | undefined) => {
      if (check !== undefined) return `$${sources.push(checks[Number(check)]!)}::boolean`;
      let k = numberOf.get(param!);
      if (k === undefined) numberOf.set(param!, (k = sources.push({ value: Number(param) - 1 })));
      return `$${k}`;
    }),
  );
  rewrite((code) => code.replace(/\bjson_each\s*\(([^()]+)\)/gi, 'json_array_elements_text(($1)::json)'));
  rewrite((code) => code.replace(/\bNOT\s+LIKE\b/g, 'NOT ILIKE').replace(/(?<!NOT\s+|I)\bLIKE\b/g, 'ILIKE'));
  rewrite(scalarMinMax);
  if (/\bINSERT\s+OR\s+IGNORE\b/i.test(text)) {
    text = text.replace(/\bINSERT\s+OR\s+IGNORE\b/i, 'INSERT');
    const returning = /\bRETURNING\b/i.exec(text);
    text = returning ? `${text.slice(0, returning.index)}ON CONFLICT DO NOTHING ${text.slice(returning.index)}` : `${text.trimEnd().replace(/;$/, '')} ON CONFLICT DO NOTHING`;
  }
  return { text, names: named ? names : null, sources };
}
