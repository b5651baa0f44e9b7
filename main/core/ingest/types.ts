/**
 * What parsing produces and chunking consumes. Parsers turn bytes into structured blocks that
 * remember where they came from (page, section, character offsets), so a citation can point back
 * into the source.
 */
export interface Block {
  kind: 'heading' | 'paragraph' | 'list' | 'code' | 'table' | 'row';
  text: string;
  /** Heading level 1–6 for headings. */
  level?: number;
  /** 1-based page for paged formats (PDF). */
  page?: number;
  /** Headings above this block, outermost first. */
  section?: string[];
  /** Offsets of the block in the extracted text of the document. */
  start: number;
  end: number;
  /** For `row` blocks: the 1-based data row in `ParsedDocument.table.rows`. */
  row?: number;
}

/** A CSV (or similar) kept as a table, for the agents that query it. */
export interface TableData {
  columns: string[];
  rows: string[][];
}

export interface ParsedDocument {
  blocks: Block[];
  /** Set for tabular files. */
  table?: TableData;
  /** e.g. page count, title. */
  metadata: Record<string, string | number>;
  /**
   * The extracted text that block (and chunk) offsets point into: `text.slice(b.start, b.end) ===
   * b.text` for every block. Always set by `parseDocument`; optional for documents built by hand.
   */
  text?: string;
}

/** What a citation can point at. */
export interface ChunkLocation {
  /** First page of the chunk (PDF). */
  page?: number;
  /** Last page, when the chunk runs over more than one page. */
  page_end?: number;
  section?: string;
  start: number;
  end: number;
  /** For CSV: first and last data row (1-based) in the chunk. */
  row_start?: number;
  row_end?: number;
}

export interface Chunk {
  /** 0-based order within the artifact. */
  ord: number;
  text: string;
  location: ChunkLocation;
}

/** Why a file failed, as the artifact's `error.code`. */
export type IngestErrorCode = 'unsupported_media_type' | 'mime_mismatch' | 'parse_error' | 'too_large' | 'empty';

export class IngestError extends Error {
  constructor(
    readonly code: IngestErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'IngestError';
  }
}
