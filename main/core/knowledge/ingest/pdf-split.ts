/**
 * One long PDF read by several parser processes at once: each opens the same stored bytes and
 * extracts a contiguous range of pages; the parts' blocks are joined here in page order, so the
 * document — offsets, page numbers for citations, and therefore its chunks — is exactly the one a
 * single process would have read. PDFium's text layout costs ~1.7 ms of CPU a page and one process
 * uses one core: splitting is what lets a second core work on the same file.
 * (Imported by the main process: nothing here may load a parser.)
 */
import { DocumentBuilder, type BlockExtras } from './builder.js';
import { IngestError, type ParsedDocument } from './types.js';

/** Pages to read, 0-based: `from` inclusive, `to` exclusive (clamped to the document). */
export interface PdfPageRange {
  from: number;
  to: number;
}

/** Why a PDF without text is `empty` (one process read it, or all of its parts came back without text). */
export function emptyPdfDetail(pages: number): string {
  return `PDF: none of the ${pages} page(s) has extractable text (scanned pages need OCR, which is not supported).`;
}

/** A PDF is split once it has this many pages (below, the extra round trip and document load cost more than they save). */
export const PDF_SPLIT_MIN_PAGES = 32;
/**
 * Text one part may send back to be joined in the main process (characters). The joined document
 * and its chunks briefly take 2–3× the text there; a PDF with more text per part than this is read
 * whole by one process instead, which streams its chunks (bounded batches), as before splitting.
 */
export const PDF_PART_MAX_CHARS = 16 * 1024 * 1024;
/** Pages each part reads at least. */
export const PDF_MIN_PAGES_PER_PART = 16;

/** Contiguous, ordered page ranges covering `pages` for up to `processes` parts of at least `PDF_MIN_PAGES_PER_PART` pages. */
export function pdfPageRanges(pages: number, processes: number): PdfPageRange[] {
  const parts = Math.max(1, Math.min(processes, Math.floor(pages / PDF_MIN_PAGES_PER_PART)));
  const ranges: PdfPageRange[] = [];
  for (let i = 0; i < parts; i++) ranges.push({ from: Math.floor((i * pages) / parts), to: Math.floor(((i + 1) * pages) / parts) });
  return ranges;
}

/**
 * The whole document from its parts (given in page order): blocks re-added through one builder,
 * so offsets run over the joined text and the block limit counts the whole file. Metadata is the
 * first part's (each part reports the whole document's page count and title).
 */
export function joinPdfParts(parts: readonly ParsedDocument[], pages: number): ParsedDocument {
  const builder = new DocumentBuilder();
  for (const part of parts) {
    for (const block of part.blocks) {
      const extras: BlockExtras = {};
      if (block.page !== undefined) extras.page = block.page;
      if (block.level !== undefined) extras.level = block.level;
      if (block.row !== undefined) extras.row = block.row;
      builder.add(block.kind, block.text, extras);
    }
  }
  if (builder.isEmpty) throw new IngestError('empty', emptyPdfDetail(pages));
  return builder.build(parts[0]?.metadata ?? { format: 'pdf', pages });
}
