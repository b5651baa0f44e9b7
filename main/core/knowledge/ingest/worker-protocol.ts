/** Messages between `parse.ts` and `parse-worker.ts` (a child process, over its IPC channel). */
import type { PdfPageRange } from './pdf-split.js';
import type { Chunk, IngestErrorCode, ParsedDocument } from './types.js';

export interface ParseRequest {
  id: number;
  /** The file's bytes (small files, tests), or… */
  bytes?: Uint8Array;
  /** …the stored file to read (the ingest queue: the bytes never pass through the main process). */
  path?: string;
  mime: string;
  filename: string;
  /** `document`: answer the parsed document; `chunks`: chunk it too and answer the chunks in batches. */
  mode: 'document' | 'chunks';
  /**
   * PDF, `chunks` mode: when the document has at least this many pages, answer `pages` (its page
   * count) instead of parsing it, so that `parse.ts` splits its pages across the parser processes.
   */
  splitPdfFrom?: number;
  /** PDF, `document` mode: read only these pages (one part of a split PDF). */
  pdfPages?: PdfPageRange;
  /** With `pdfPages`: a part whose text is longer answers `unsplit` instead of its blocks. */
  pdfPartMaxChars?: number;
  /** Test hook: spin forever, like a parser stuck on a pathological file. */
  hang?: boolean;
  /** Test hook: allocate memory outside the V8 heap until killed, like a zip bomb inflating. */
  balloon?: boolean;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'chunks'; id: number; chunks: Chunk[] }
  | { type: 'pages'; id: number; pages: number }
  /** A part of a split PDF with more text than the main process should hold: read the file whole instead. */
  | { type: 'unsplit'; id: number }
  | { type: 'result'; id: number; ok: true; doc: ParsedDocument }
  | { type: 'result'; id: number; ok: false; code: IngestErrorCode; detail: string };
