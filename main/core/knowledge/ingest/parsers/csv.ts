/**
 * CSV and TSV (`csv-parse`): the table is kept whole for the agents that query it, and each data
 * row also becomes a `row` block rendered as `column: value; column: value` for search.
 */
import { parse } from 'csv-parse/sync';
import { DocumentBuilder } from '../builder.js';
import { guessDelimiter, MIME } from '../mime.js';
import { decodeTextOrThrow } from '../text.js';
import { PARSE_LIMITS } from '../limits.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { errorText } from '../../../../../shared/errors.js';

export function parseCsv(bytes: Buffer, mime: string): ParsedDocument {
  const { text, encoding } = decodeTextOrThrow(bytes, 'CSV');
  const delimiter = mime === MIME.tsv ? '\t' : guessDelimiter(text.slice(0, 64 * 1024));
  // The header says how wide the table is before anything is parsed (a million columns fails now).
  const firstLine = text.indexOf('\n') === -1 ? text : text.slice(0, text.indexOf('\n'));
  const headerWidth = firstLine.split(delimiter).length;
  if (headerWidth > PARSE_LIMITS.csvColumns) throw new IngestError('too_large', `CSV: a row has ${headerWidth} columns; at most ${PARSE_LIMITS.csvColumns} are read.`);
  let records: string[][];
  try {
    records = parse(text, {
      on_record: (record: string[]) => {
        if (record.length > PARSE_LIMITS.csvColumns) throw new IngestError('too_large', `CSV: a row has ${record.length} columns; at most ${PARSE_LIMITS.csvColumns} are read.`);
        return record;
      }, delimiter, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    if (error instanceof IngestError) throw error;
    const reason = errorText(error);
    throw new IngestError('parse_error', `CSV: the table could not be read (${reason}).`);
  }
  const widest = records.reduce((max, r) => Math.max(max, r.length), 0);
  if (widest > PARSE_LIMITS.csvColumns) throw new IngestError('too_large', `CSV: a row has ${widest} columns; at most ${PARSE_LIMITS.csvColumns} are read.`);
  if (records.length > PARSE_LIMITS.blocks) throw new IngestError('too_large', `CSV: the table has more than ${PARSE_LIMITS.blocks} rows.`);
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
