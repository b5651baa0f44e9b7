/**
 * Which parser reads a type, without loading any parser: the main process asks this before it
 * hands a file to a parser process, and must not carry the parsers' libraries (mammoth, jszip,
 * PDFium's glue, htmlparser2, csv-parse…) in its memory or its start-up time.
 */
import { isTextualMime, MIME, normalizeMime } from '../mime.js';

export type ParserKind = 'pdf' | 'docx' | 'html' | 'markdown' | 'csv' | 'json' | 'text';

/** The parser for `mime`: a dedicated one, plain text for any other text type, or null. */
export function parserKind(mime: string): ParserKind | null {
  const type = normalizeMime(mime);
  if (!type) return null;
  if (type === MIME.pdf) return 'pdf';
  if (type === MIME.docx) return 'docx';
  if (type === MIME.html || type === 'application/xhtml+xml') return 'html';
  if (type === MIME.markdown || type === 'text/x-markdown') return 'markdown';
  if (type === MIME.csv || type === MIME.tsv) return 'csv';
  if (type === MIME.json || type.endsWith('+json')) return 'json';
  if (isTextualMime(type)) return 'text';
  return null;
}
