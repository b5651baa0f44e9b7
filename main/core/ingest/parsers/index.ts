/** Picks the parser for a type and runs it in the current thread (the worker calls this). */
import { isTextualMime, MIME, normalizeMime } from '../mime.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { parseCsv } from './csv.js';
import { parseDocx } from './docx.js';
import { parseHtml } from './html.js';
import { parseJson } from './json.js';
import { parseMarkdown } from './markdown.js';
import { parsePdf } from './pdf.js';
import { parseText } from './text.js';

type Parser = (bytes: Buffer, mime: string) => ParsedDocument | Promise<ParsedDocument>;

/** The parser for `mime`: a dedicated one, plain text for any other text type, or null. */
export function parserFor(mime: string): Parser | null {
  const type = normalizeMime(mime);
  if (!type) return null;
  if (type === MIME.pdf) return parsePdf;
  if (type === MIME.docx) return parseDocx;
  if (type === MIME.html || type === 'application/xhtml+xml') return parseHtml;
  if (type === MIME.markdown || type === 'text/x-markdown') return parseMarkdown;
  if (type === MIME.csv || type === MIME.tsv) return parseCsv;
  if (type === MIME.json || type.endsWith('+json')) return parseJson;
  if (isTextualMime(type)) return parseText;
  return null;
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
    throw new IngestError('parse_error', `The file could not be read (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (!doc.blocks.some((b) => b.text.trim() !== '')) throw new IngestError('empty', 'The file has no text.');
  return doc;
}
