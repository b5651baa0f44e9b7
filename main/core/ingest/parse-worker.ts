/**
 * Worker thread entry: parses one file at a time for `parse.ts`, which terminates it when a parse
 * runs over its time limit. Built as its own bundle (dist/main/parse-worker.js).
 */
import { parentPort } from 'node:worker_threads';
import { runParser } from './parsers/index.js';
import { loadPdfjs } from './parsers/pdf.js';
import { IngestError } from './types.js';
import type { ParseRequest, WorkerMessage } from './worker-protocol.js';

const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs in a worker thread (see parse.ts).');

function send(message: WorkerMessage): void {
  port?.postMessage(message);
}

function spin(): void {
  // Busy, not waiting: only terminating the thread ends this.
  for (let i = 0; i >= 0; i = (i + 1) % 1_000_000) {
    /* spin */
  }
}

port.on('message', (request: ParseRequest) => {
  if (request.hang) spin();
  const bytes = Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength);
  runParser(bytes, request.mime).then(
    (doc) => send({ type: 'result', id: request.id, ok: true, doc }),
    (error: unknown) => {
      const failure = error instanceof IngestError ? error : new IngestError('parse_error', `The file could not be read (${error instanceof Error ? error.message : String(error)}).`);
      send({ type: 'result', id: request.id, ok: false, code: failure.code, detail: failure.message });
    },
  );
});

// Ready at once: a text file need not wait for pdf.js. It loads in the background meanwhile (a
// PDF parse awaits the same load), so it rarely counts against a PDF's time limit either.
send({ type: 'ready' });
loadPdfjs().catch(() => {
  // a PDF parse will report the failure
});
