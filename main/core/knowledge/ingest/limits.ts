/**
 * Hard bounds on what one file may make the parser do, whatever its size on disk: a small hostile
 * file (a zip bomb, millions of empty paragraphs, a PDF claiming a million pages) fails at once
 * with `too_large` instead of exhausting memory or holding the queue. Listed in the README.
 */
const MB = 1024 * 1024;

export const PARSE_LIMITS = {
  /** Entries in an Office archive (DOCX, XLSX, PPTX): their central directory is read first. */
  zipEntries: 5_000,
  /** Sum of the uncompressed sizes an Office archive declares. */
  zipUnpackedBytes: 256 * MB,
  /** The inflated main XML part of a DOCX (word/document.xml). */
  docxXmlBytes: 64 * MB,
  /** Paragraphs in a DOCX (counted in its XML before it is converted). */
  docxParagraphs: 200_000,
  /** Pages of a PDF (the page count it declares, checked before any page is read). */
  pdfPages: 10_000,
  /** Columns of a CSV/TSV (a spreadsheet's own limit). */
  csvColumns: 16_384,
  /** How deep elements of an HTML page (or of a DOCX's HTML) may nest. */
  htmlDepth: 1_000,
  /** Blocks (paragraphs, rows, list items…) of any one document. */
  blocks: 1_000_000,
} as const;
