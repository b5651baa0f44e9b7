/**
 * PDF, read with PDFium (see pdfium.ts): the text of each page, split into paragraphs where the
 * gap between lines is larger than the page's usual line spacing. Every block carries its page.
 * No OCR: a scanned PDF has no text and ends as `empty`.
 *
 * PDFium replaced pdf.js here because it extracts the same text about 3× faster (measured on
 * 2026-11-23 with test/bench/ingest.ts; the figures are in the README).
 */
import { DocumentBuilder } from '../builder.js';
import { emptyPdfDetail, type PdfPageRange } from '../pdf-split.js';
import { PARSE_LIMITS } from '../limits.js';
import { IngestError, type ParsedDocument } from '../types.js';
import { cString, FPDF_ERR, loadPdfium, readUtf16, resetPdfium, type PdfiumApi } from './pdfium.js';
import { errorText } from '../../../../../shared/errors.js';

interface Line {
  text: string;
  /** Baseline of the line's first character (PDF space: up is positive). */
  y: number;
  /** Baseline of its last, when the line runs over two (a hyphenated word joined). */
  yEnd?: number;
  height: number;
}

/** The usual spacing of lines inside a paragraph: the lower quartile of the gaps (paragraph gaps are the large ones). */
function usualGap(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 4)] ?? 0;
}

/** Groups lines into paragraphs: a gap clearly above the usual line spacing ends one. */
function paragraphs(lines: Line[]): string[] {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const before = lines[i - 1];
    const gap = Math.abs((before?.yEnd ?? before?.y ?? 0) - (lines[i]?.y ?? 0));
    if (gap > 0) gaps.push(gap);
  }
  const usual = usualGap(gaps);
  const out: string[] = [];
  let current: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    const prev = lines[i - 1];
    if (prev && current.length > 0) {
      const prevY = prev.yEnd ?? prev.y;
      const gap = Math.abs(prevY - line.y);
      const bigGap = usual > 0 && gap > usual * 1.4 && gap > line.height * 1.2;
      // Text that goes back up the page is a new column or a new region.
      const wentUp = line.y > prevY + line.height;
      if (bigGap || wentUp) {
        out.push(current.join('\n'));
        current = [];
      }
    }
    current.push(line.text.replace(/\s+$/, ''));
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

function originY(api: PdfiumApi, textPage: number, index: number, scratch: number): number {
  api._FPDFText_GetCharOrigin(textPage, index, scratch, scratch + 8);
  return api.HEAPF64[(scratch + 8) / 8] ?? 0;
}

/** The page's lines with their baseline and font size, in reading order as PDFium gives them. */
function pageLines(api: PdfiumApi, textPage: number, scratch: number): Line[] {
  const count = api._FPDFText_CountChars(textPage);
  if (count <= 0) return [];
  const buffer = api.wasmExports.malloc((count + 1) * 2);
  if (!buffer) throw new IngestError('too_large', 'PDF: a page has more text than the parser can hold.');
  let text: string;
  try {
    // The answer counts the terminating NUL; one UTF-16 code unit per character otherwise
    // (PDFium's characters are BMP code points, line breaks it adds included).
    text = readUtf16(api, buffer, api._FPDFText_GetText(textPage, 0, count, buffer) - 1);
  } finally {
    api.wasmExports.free(buffer);
  }
  const lines: Line[] = [];
  const breaks = /\r\n|\r|\n/g;
  let from = 0;
  const add = (end: number) => {
    const lineText = text.slice(from, end);
    if (lineText.trim() !== '') {
      // The first visible character places the line: its baseline, and its font size as the line's height.
      const offset = from + lineText.search(/\S/);
      const y = originY(api, textPage, offset, scratch);
      // A word hyphenated at a line end comes as one line, the break marked U+FFFE: the word is
      // joined (what a search for it needs), and the line ends where its last character sits.
      const hyphenated = lineText.includes('\ufffe');
      const line: Line = { text: hyphenated ? lineText.replaceAll('\ufffe', '') : lineText, y, height: api._FPDFText_GetFontSize(textPage, offset) };
      if (hyphenated) line.yEnd = originY(api, textPage, from + lineText.trimEnd().length - 1, scratch);
      lines.push(line);
    }
  };
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    add(match.index);
    from = match.index + match[0].length;
  }
  add(text.length);
  return lines;
}

function metaText(api: PdfiumApi, doc: number, tag: string): string | undefined {
  const name = cString(api, tag);
  try {
    const bytes = api._FPDF_GetMetaText(doc, name, 0, 0);
    if (bytes <= 2 || bytes > 64 * 1024) return undefined;
    const buffer = api.wasmExports.malloc(bytes);
    try {
      api._FPDF_GetMetaText(doc, name, buffer, bytes);
      return readUtf16(api, buffer, bytes / 2 - 1).trim() || undefined;
    } finally {
      api.wasmExports.free(buffer);
    }
  } finally {
    api.wasmExports.free(name);
  }
}

function openError(code: number): IngestError {
  if (code === FPDF_ERR.password) return new IngestError('parse_error', 'PDF: the file is password-protected.');
  if (code === FPDF_ERR.security) return new IngestError('parse_error', 'PDF: the file is encrypted with an unsupported security handler.');
  const reason = code === FPDF_ERR.format ? 'it is not a PDF, or it is corrupt' : code === FPDF_ERR.file ? 'it is incomplete' : 'unknown error';
  return new IngestError('parse_error', `PDF: the file could not be read (${reason}).`);
}

export interface PdfReadOptions {
  /** Read only these pages (one part of a PDF split across parser processes). */
  range?: PdfPageRange;
  /**
   * Answer only the page count when the document has at least this many pages (checked right
   * after the count, before any page is read): the caller then splits the pages across processes.
   */
  splitFrom?: number;
}

/** The document, or — with `splitFrom` and at least that many pages — its page count alone. */
export type PdfReadResult = { doc: ParsedDocument } | { pages: number };

export async function parsePdf(bytes: Buffer): Promise<ParsedDocument> {
  const result = await readPdf(bytes);
  if ('doc' in result) return result.doc;
  throw new Error('unreachable: no split was asked for');
}

/**
 * Reads a PDF's text, all of it or the pages of `options.range` (page numbers on the blocks stay
 * those of the whole document, for citations). A part may have no text (its pages are scanned):
 * only a whole document without text is `empty`, so that check is the caller's for a part.
 */
export async function readPdf(bytes: Buffer, options: PdfReadOptions = {}): Promise<PdfReadResult> {
  const api = await loadPdfium();
  const data = api.wasmExports.malloc(bytes.length);
  if (!data) throw new IngestError('too_large', 'PDF: the file is larger than the parser can hold.');
  api.HEAPU8.set(bytes, data);
  // Two doubles for the character origins (x, y).
  const scratch = api.wasmExports.malloc(16);
  let doc = 0;
  try {
    doc = api._FPDF_LoadMemDocument(data, bytes.length, 0);
    if (!doc) throw openError(api._FPDF_GetLastError());
    const pages = api._FPDF_GetPageCount(doc);
    // The declared page count, before any page is read: a file claiming a million pages fails now.
    if (pages > PARSE_LIMITS.pdfPages) {
      throw new IngestError('too_large', `PDF: the file declares ${pages} pages; at most ${PARSE_LIMITS.pdfPages} are read.`);
    }
    if (options.splitFrom !== undefined && !options.range && pages >= options.splitFrom) return { pages };
    const from = Math.max(0, Math.min(pages, options.range?.from ?? 0));
    const to = Math.max(from, Math.min(pages, options.range?.to ?? pages));
    const builder = new DocumentBuilder();
    for (let index = from; index < to; index++) {
      const page = api._FPDF_LoadPage(doc, index);
      if (!page) continue; // A broken page is skipped; the others are still read.
      try {
        const textPage = api._FPDFText_LoadPage(page);
        if (!textPage) continue;
        try {
          for (const paragraph of paragraphs(pageLines(api, textPage, scratch))) builder.add('paragraph', paragraph, { page: index + 1 });
        } finally {
          api._FPDFText_ClosePage(textPage);
        }
      } finally {
        api._FPDF_ClosePage(page);
      }
    }
    const metadata: ParsedDocument['metadata'] = { format: 'pdf', pages };
    const title = metaText(api, doc, 'Title');
    if (title) metadata.title = title;
    if (builder.isEmpty && !options.range) throw new IngestError('empty', emptyPdfDetail(pages));
    return { doc: builder.build(metadata) };
  } catch (error) {
    if (error instanceof IngestError) throw error;
    // A trap inside PDFium (a hostile file) may leave its memory inconsistent: the next PDF gets a fresh instance.
    doc = 0;
    resetPdfium();
    throw new IngestError('parse_error', `PDF: the file could not be read (${errorText(error)}).`);
  } finally {
    if (doc) api._FPDF_CloseDocument(doc);
    api.wasmExports.free(scratch);
    api.wasmExports.free(data);
  }
}
