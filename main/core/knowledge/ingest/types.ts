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

// A chunk is what the chunks repository stores; the ingest pipeline produces it.
export type { Chunk, ChunkLocation } from '../../../db/repositories/chunks/chunk.js';

/** Why a file failed, as the artifact's `error.code`. */
export type IngestErrorCode = 'unsupported_media_type' | 'mime_mismatch' | 'parse_error' | 'too_large' | 'empty' | 'cancelled';

export class IngestError extends Error {
  constructor(
    readonly code: IngestErrorCode,
    detail: string,
  ) {
    super(detail);
    this.name = 'IngestError';
  }
}
