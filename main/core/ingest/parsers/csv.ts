/**
 * CSV and TSV (`csv-parse`): the table is kept whole for the agents that query it, and each data
 * row also becomes a `row` block rendered as `column: value; column: value` for search.
 */
import { parse } from 'csv-parse/sync';
import { DocumentBuilder } from '../builder.js';
import { guessDelimiter, MIME } from '../mime.js';
import { decodeTextOrThrow } from '../text.js';
import { IngestError, type ParsedDocument } from '../types.js';

export function parseCsv(bytes: Buffer, mime: string): ParsedDocument {
  const { text, encoding } = decodeTextOrThrow(bytes, 'CSV');
  const delimiter = mime === MIME.tsv ? '\t' : guessDelimiter(text.slice(0, 64 * 1024));
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new IngestError('parse_error', `CSV: the table could not be read (${reason}).`);
  }
  const [header, ...data] = records;
  if (!header || data.length === 0) throw new IngestError('empty', 'CSV: the table has no data rows.');
  let width = header.length;
  for (const r of data) if (r.length > width) width = r.length;
  const columns = Array.from({ length: width }, (_, i) => header[i]?.replace(/\s+/g, ' ') || `column ${i + 1}`);
  const rows = data.map((r) => (r.length === width ? r : Array.from({ length: width }, (_, i) => r[i] ?? '')));
  const builder = new DocumentBuilder();
  rows.forEach((row, i) => {
    const cells: string[] = [];
    row.forEach((value, c) => {
      if (value !== '') cells.push(`${columns[c]}: ${value.replace(/\s*\n\s*/g, ' ')}`);
    });
    builder.add('row', cells.join('; '), { row: i + 1 });
  });
  return builder.build({ format: 'csv', encoding, delimiter: delimiter === '\t' ? 'tab' : delimiter, columns: width, rows: rows.length }, { columns, rows });
}
