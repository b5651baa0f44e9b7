import type { Artifact } from '../../../../shared/operations/datasets.js';

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, or a tab / return that some
 * apps skip before one) is prefixed with a quote: a file name is anyone's text, and must not run.
 */
function defused(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break, its quotes doubled. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = defused(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows as RFC 4180 text: CRLF line ends, as spreadsheets expect. */
export function csvText(rows: readonly (readonly (string | number | null)[])[]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Column names stay the same in every language: the file is read by programs as much as people. */
const HEADER = ['name', 'type', 'size', 'status', 'added', 'chunks'] as const;

/** A dataset's files as CSV: name, type, size in bytes, status, when added (ISO 8601), chunks. */
export function filesCsv(files: readonly Artifact[]): string {
  return csvText([HEADER, ...files.map((f) => [f.key, f.mime_type, f.size, f.status, f.created_at, f.chunk_count])]);
}
