/**
 * Cursors are the `seq` of the last row of a page, opaque to clients: rows inserted later get a
 * larger seq, so a cursor stays valid and no row is skipped or repeated while rows are inserted.
 */
export function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

/** Returns undefined for a cursor this server did not make. */
export function decodeCursor(cursor: string): number | undefined {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^s(\d{1,15})$/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Fetches `limit + 1` rows to know whether another page exists. */
export function toPage<T extends { seq: number }>(rows: T[], limit: number): { rows: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept[kept.length - 1];
  return { rows: kept, next_cursor: more && last ? encodeCursor(last.seq) : null };
}
