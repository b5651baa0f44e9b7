/**
 * Parser process entry: parses one file at a time for `parse.ts`, which kills this process when a
 * parse runs over its time or memory limit. A separate process (not a worker thread) so that
 * everything a parser allocates, inside the V8 heap or outside it (inflated buffers), is bounded
 * and given back to the system when it ends. Built as its own bundle (dist/main/parse-worker.js).
 */
import { readFile } from 'node:fs/promises';
import { chunkBatches } from './chunk-batches.js';
import { chunkDocument } from './chunk.js';
import { runParser } from './parsers/index.js';
import { parserKind } from './parsers/kinds.js';
import { readPdf } from './parsers/pdf.js';
import { decodeTextOrThrow } from './text.js';
import { textChunksBySegment } from './text-segments.js';
import { IngestError, type Chunk, type ParsedDocument } from './types.js';
import type { ParseRequest, WorkerMessage } from './worker-protocol.js';
import { errorText } from '../../../../shared/errors.js';

if (!process.send) throw new Error('parse-worker.ts runs as a child process with an IPC channel (see parse.ts).');

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || !process.send) return resolve();
    process.send(message, undefined, undefined, () => resolve());
  });
}

function spin(): void {
  // Busy, not waiting: only killing the process ends this.
  for (let i = 0; i >= 0; i = (i + 1) % 1_000_000) {
    /* spin */
  }
}

function balloon(): void {
  // Native memory, touched so it is resident: what inflating a zip bomb does.
  const held: Buffer[] = [];
  for (;;) held.push(Buffer.alloc(16 * 1024 * 1024, 1));
}

async function sendChunks(id: number, chunks: Chunk[]): Promise<void> {
  for (const batch of chunkBatches(chunks)) await send({ type: 'chunks', id, chunks: batch });
}

async function handle(request: ParseRequest): Promise<void> {
  if (request.hang) spin();
  if (request.balloon) balloon();
  try {
    const bytes = request.path !== undefined ? await readFile(request.path) : Buffer.from(request.bytes?.buffer ?? new ArrayBuffer(0), request.bytes?.byteOffset, request.bytes?.byteLength);
    const pdf = parserKind(request.mime) === 'pdf';
    if (pdf && request.pdfPages) {
      // One part of a split PDF: its blocks go back (without the joined text: parse.ts joins the
      // parts' blocks in page order and chunks them).
      const part = await readPdf(bytes, { range: request.pdfPages });
      if ('doc' in part) {
        if (request.pdfPartMaxChars !== undefined && (part.doc.text?.length ?? 0) > request.pdfPartMaxChars) return await send({ type: 'unsplit', id: request.id });
        return await send({ type: 'result', id: request.id, ok: true, doc: { blocks: part.doc.blocks, metadata: part.doc.metadata } });
      }
    }
    if (request.mode === 'chunks' && parserKind(request.mime) === 'text') {
      // Plain text goes out a segment at a time: indexing starts while the rest is still parsed.
      const { text, encoding } = decodeTextOrThrow(bytes, 'Text');
      let count = 0;
      for (const chunks of textChunksBySegment(text)) {
        count += chunks.length;
        await sendChunks(request.id, chunks);
      }
      if (count === 0) throw new IngestError('empty', 'The file has no text.');
      return await send({ type: 'result', id: request.id, ok: true, doc: { blocks: [], metadata: { format: 'text', encoding } } });
    }
    let doc: ParsedDocument;
    if (pdf && request.splitPdfFrom !== undefined && request.mode === 'chunks') {
      // A long PDF answers its page count alone (nothing read yet); a short one is parsed here as usual.
      const plan = await readPdf(bytes, { splitFrom: request.splitPdfFrom });
      if ('pages' in plan) return await send({ type: 'pages', id: request.id, pages: plan.pages });
      doc = plan.doc;
    } else doc = await runParser(bytes, request.mime);
    if (request.mode === 'document') return await send({ type: 'result', id: request.id, ok: true, doc });
    const chunks = chunkDocument(doc);
    if (chunks.length === 0) throw new IngestError('empty', 'The file has no text to search.');
    await sendChunks(request.id, chunks);
    // The chunks carry the text; the document itself goes back without it.
    await send({ type: 'result', id: request.id, ok: true, doc: { blocks: [], metadata: doc.metadata } });
  } catch (error) {
    const failure = error instanceof IngestError ? error : new IngestError('parse_error', `The file could not be read (${errorText(error)}).`);
    await send({ type: 'result', id: request.id, ok: false, code: failure.code, detail: failure.message });
  }
}

process.on('message', (request: ParseRequest) => void handle(request));
// The app went away (crashed, killed): no one is left to answer.
process.on('disconnect', () => process.exit(0));

// pdf.js loads with the first PDF, not before: it adds a lot of resident memory, and a process
// that reads only text files stays well under its ceiling.
void send({ type: 'ready' });
