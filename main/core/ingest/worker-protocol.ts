/** Messages between `parse.ts` and `parse-worker.ts`. */
import type { IngestErrorCode, ParsedDocument } from './types.js';

export interface ParseRequest {
  id: number;
  bytes: Uint8Array;
  mime: string;
  filename: string;
  /** Test hook: spin forever, like a parser stuck on a pathological file. */
  hang?: boolean;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; ok: true; doc: ParsedDocument }
  | { type: 'result'; id: number; ok: false; code: IngestErrorCode; detail: string };
