/**
 * The keyword search thread (keyword-thread.ts starts it by file path; the main thread never loads
 * this module): ranks questions by keywords over its own read-only connection, one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openReadOnlyDatabase } from '../../db/connection.js';
import { createChunkReader } from '../../db/repositories/chunks.js';
import { keywordRanking } from './keyword.js';
import type { KeywordWorkerData, KeywordWorkerMessage, KeywordWorkerRequest } from './keyword-thread.js';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const port = parentPort;
const send = (message: KeywordWorkerMessage) => port?.postMessage(message);
const { file, nativeBinding } = workerData as KeywordWorkerData;

try {
  const chunks = createChunkReader(openReadOnlyDatabase(file, nativeBinding ? { nativeBinding } : {}));
  port?.on('message', (request: KeywordWorkerRequest) => {
    try {
      send({ type: 'ranked', id: request.id, ranking: keywordRanking(chunks, request.kb_ids, request.text, request.limit, request.options) });
    } catch (error) {
      send({ type: 'error', id: request.id, reason: errorText(error) });
    }
  });
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'failed', reason: errorText(error) });
  port?.close();
}
