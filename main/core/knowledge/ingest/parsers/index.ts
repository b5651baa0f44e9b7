/** Picks the parser for a type and runs it in the current thread (the worker calls this). */
import { normalizeMime } from '../mime.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { parseCsv } from './csv.js';
import { parseDocx } from './docx.js';
import { parseHtml } from './html.js';
import { parseJson } from './json.js';
import { parserKind, type ParserKind } from './kinds.js';
import { parseMarkdown } from './markdown.js';
import { parsePdf } from './pdf.js';
import { parseText } from './text.js';
import { errorText } from '../../../../../shared/errors.js';

type Parser = (bytes: Buffer, mime: string) => ParsedDocument | Promise<ParsedDocument>;

const PARSERS: Record<ParserKind, Parser> = {
  pdf: parsePdf,
  docx: parseDocx,
  html: parseHtml,
  markdown: parseMarkdown,
  csv: parseCsv,
  json: parseJson,
  text: parseText,
};

/** The parser for `mime` (see kinds.ts), or null. */
export function parserFor(mime: string): Parser | null {
  const kind = parserKind(mime);
  return kind ? PARSERS[kind] : null;
}

/** Parses in this thread; everything that goes wrong is an `IngestError`. */
export async function runParser(bytes: Buffer, mime: string): Promise<ParsedDocument> {
  const parser = parserFor(mime);
  if (!parser) throw new IngestError('unsupported_media_type', `${mime || 'This type'} files cannot be read.`);
  let doc: ParsedDocument;
  try {
    doc = await parser(bytes, normalizeMime(mime) ?? mime);
  } catch (error) {
    if (error instanceof IngestError) throw error;
    if (error instanceof RangeError) throw new IngestError('parse_error', `The file is too deeply nested or too large to read (${error.message}).`);
    throw new IngestError('parse_error', `The file could not be read (${errorText(error)}).`);
  }
  if (!doc.blocks.some((b) => b.text.trim() !== '')) throw new IngestError('empty', 'The file has no text.');
  return doc;
}
