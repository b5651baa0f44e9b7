import { Readable } from 'node:stream';
import type { IncomingFile } from '../../shared/operations/index.js';

/** The `files` input of `artifacts.upload` (what a multipart form streams), from whole files in memory. */
export async function* formFiles(...files: Array<{ filename: string; mime_type: string | null; bytes: Buffer | string }>): AsyncGenerator<IncomingFile> {
  for (const file of files) yield { filename: file.filename, mime_type: file.mime_type, stream: Readable.from([Buffer.from(file.bytes)]) };
}
