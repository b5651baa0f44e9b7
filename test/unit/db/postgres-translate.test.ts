import { describe, expect, it } from 'vitest';
import { translate } from '../../../main/db/postgres/translate.js';

/** The repositories' SQLite-flavoured SQL as PostgreSQL is sent it (main/db/postgres/translate.ts). */
describe('translating the repositories’ SQL for PostgreSQL', () => {
  it('numbers ? in order, and a named parameter once wherever it recurs', () => {
    expect(translate('SELECT * FROM t WHERE a = ? AND b = ?')).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b = $2', names: null, sources: [{ value: 0 }, { value: 1 }] });
    const named = translate('UPDATE t SET a = @a, b = @b WHERE a <> @a');
    expect(named.text).toBe('UPDATE t SET a = $1, b = $2 WHERE a <> $1');
    expect(named.names).toEqual(['a', 'b']);
  });

  it('leaves string literals, quoted names, comments and casts alone', () => {
    const t = translate(`SELECT '?', 'it''s @x LIKE', "col?" FROM t -- who? @y\nWHERE x = ?::text /* @z ? */`);
    expect(t.text).toBe(`SELECT '?', 'it''s @x LIKE', "col?" FROM t -- who? @y\nWHERE x = $1::text /* @z ? */`);
    expect(t.names).toBeNull();
  });

  it('decides `param IS NULL` from the value, and sends a parameter used only there not at all', () => {
    const t = translate('SELECT 1 FROM t WHERE (? IS NULL OR a < ?) AND (@never IS NOT NULL)'.replace('@never', '?'));
    expect(t.text).toBe('SELECT 1 FROM t WHERE ($1::boolean OR a < $2) AND ($3::boolean)');
    expect(t.sources).toEqual([{ isNull: 0, not: false }, { value: 1 }, { isNull: 2, not: true }]);
    const named = translate('UPDATE u SET d = CASE WHEN @x IS NULL THEN d WHEN @x = 1 THEN 2 END');
    expect(named.text).toBe('UPDATE u SET d = CASE WHEN $1::boolean THEN d WHEN $2 = 1 THEN 2 END');
    expect(named.sources).toEqual([{ isNull: 0, not: false }, { value: 0 }]);
  });

  it('rewrites what SQLite says its own way: INSERT OR IGNORE, json_each, two-argument min/max, LIKE', () => {
    expect(translate('INSERT OR IGNORE INTO t (a) VALUES (?)').text).toBe('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING');
    expect(translate('INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING a').text).toBe('INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a');
    expect(translate('SELECT count(*) FROM c WHERE id IN (SELECT value FROM json_each(@ids))').text).toBe(
      'SELECT count(*) FROM c WHERE id IN (SELECT value FROM json_array_elements_text(($1)::json))',
    );
    expect(translate('SELECT min(a, b + (SELECT max(c) FROM d)), max(e), MAX(f, 1) FROM t').text).toBe('SELECT LEAST(a, b + (SELECT max(c) FROM d)), max(e), GREATEST(f, 1) FROM t');
    expect(translate("SELECT 1 WHERE a LIKE ? ESCAPE '\\' AND NOT b LIKE ? AND c NOT LIKE 'x'").text).toBe("SELECT 1 WHERE a ILIKE $1 ESCAPE '\\' AND NOT b ILIKE $2 AND c NOT ILIKE 'x'");
  });

  it('refuses a statement that mixes ? and named parameters', () => {
    expect(() => translate('SELECT ? + @a')).toThrow(/mixes/);
  });
});
