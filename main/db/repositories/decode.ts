import type { z } from 'zod';

/**
 * A stored value that does not hold what Parley wrote there (a hand-edited database, a disk that
 * flipped bytes): the record cannot be read. Typed, so a reader never meets a raw SyntaxError from
 * deep inside a repository, and says which table, column and row to look at.
 */
export class CorruptRecordError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly id: string,
    cause: unknown,
  ) {
    super(`The stored ${table}.${column} of ${id} is not readable.`, { cause });
    this.name = 'CorruptRecordError';
  }
}

/** Where a JSON column comes from, for the error that names it. */
export interface ColumnAt {
  table: string;
  column: string;
  id: string;
}

function parsed<S extends z.ZodType>(schema: S, text: string): { ok: true; value: z.output<S> } | { ok: false; error: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error };
  }
  const checked = schema.safeParse(value);
  return checked.success ? { ok: true, value: checked.data } : { ok: false, error: checked.error };
}

/** A JSON column a reader depends on (globs, capabilities): a bad value is a CorruptRecordError. */
export function jsonColumn<S extends z.ZodType>(schema: S, text: string, at: ColumnAt): z.output<S> {
  const result = parsed(schema, text);
  if (!result.ok) throw new CorruptRecordError(at.table, at.column, at.id, result.error);
  return result.value;
}

/** A JSON column that only informs (a list of skipped files): a bad value reads as `fallback`. */
export function jsonColumnOr<S extends z.ZodType, F = z.output<S>>(schema: S, text: string, fallback: F): z.output<S> | F {
  const result = parsed(schema, text);
  return result.ok ? result.value : fallback;
}
