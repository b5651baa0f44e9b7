import { ServiceError } from '../../../shared/errors.js';
import type { Config } from '../../../shared/config.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { BlobStore } from '../storage/blob-store.js';
import { detectMime } from './mime.js';
import { parseAndChunk } from './parse.js';
import { IngestError } from './types.js';
import type { EmbeddingModel } from '../retrieval/embedder.js';
import { EmbedQueue } from './embed-queue.js';

const MB = 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;

export interface IngestDeps {
  repos: Repositories;
  blobs: BlobStore;
  config: () => Config;
  /** The configured embedding model, if any: chunks are embedded once indexed. */
  embedding: () => EmbeddingModel | undefined;
  warn: (message: string) => void;
  /** Queues a knowledge base for embedding once a file of it is ready (IngestQueue sets it). */
  embedLater?: (kbId: string) => void;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Turns one stored file into searchable chunks: detect its real type, check it is allowed, parse
 * (in a child process, with size, time and memory limits), chunk, index. Every failure ends as `failed` with a
 * code and a detail on the artifact; nothing here throws to the caller.
 */
export async function processArtifact(deps: IngestDeps, artifactId: string): Promise<void> {
  const { repos, blobs } = deps;
  const now = () => new Date().toISOString();
  const artifact = repos.artifacts.get(artifactId);
  if (!artifact || artifact.status !== 'processing' || !artifact.sha256) return;
  const { uploads } = deps.config();
  try {
    if (artifact.size === 0) throw new IngestError('empty', 'The file is empty.');
    if (artifact.size > uploads.max_file_mb * MB) throw new IngestError('too_large', `The file is larger than the limit of ${uploads.max_file_mb} MB.`);
    // Only the head of the file is read here; the parser process reads the rest itself.
    const head = await readAll(blobs.read(artifact.sha256, { end: SNIFF_BYTES - 1 }));
    const detected = detectMime({ bytes: head, filename: artifact.filename, declared: artifact.declared_mime_type });
    if (detected.mismatch) {
      throw new IngestError('mime_mismatch', detected.detail ?? `Declared as ${artifact.declared_mime_type}, but the content is ${detected.mime}.`);
    }
    if (!uploads.allowed_types.includes(detected.mime)) {
      throw new IngestError('unsupported_media_type', `${detected.mime} files are not accepted here (see [uploads] allowed_types).`);
    }
    repos.artifacts.setStored(artifact.id, artifact.sha256, detected.mime, now());
    repos.artifacts.setProgress(artifact.id, 0.1, now());
    const doc = await parseAndChunk(
      { path: blobs.pathOf(artifact.sha256), size: artifact.size, mime: detected.mime, filename: artifact.filename },
      { maxBytes: uploads.max_file_mb * MB, timeoutMs: uploads.parse_timeout_seconds * 1000, memoryMb: uploads.parse_memory_mb },
    );
    repos.artifacts.setProgress(artifact.id, 0.6, now());
    const { chunks } = doc;
    if (chunks.length === 0) throw new IngestError('empty', 'The file has no text to search.');
    // The artifact may have been deleted meanwhile: index only while it still exists.
    repos.transaction(() => {
      if (!repos.artifacts.get(artifact.id)) return;
      repos.chunks.replaceForArtifact(artifact.id, artifact.kb_id, chunks);
      repos.artifacts.setReady(artifact.id, { mime_type: detected.mime, chunk_count: chunks.length, metadata: JSON.stringify(doc.metadata), now: now() });
    });
    // Keep the document frequencies that query pruning uses close to the corpus (cheap unless it grew by a tenth).
    repos.chunks.refreshTermStatsIfStale();
    // Vectors follow in the background (EmbedQueue): the file is searchable by keyword already.
    deps.embedLater?.(artifact.kb_id);
  } catch (error) {
    const failure =
      error instanceof IngestError
        ? { code: error.code, detail: error.message }
        : error instanceof ServiceError
          ? { code: error.code, detail: error.message }
          : { code: 'parse_error', detail: `The file could not be processed: ${error instanceof Error ? error.message : String(error)}` };
    if (!(error instanceof IngestError)) deps.warn(`processing ${artifact.id} failed: ${String(error)}`);
    if (repos.db.open && repos.artifacts.get(artifact.id)) repos.artifacts.setStatus(artifact.id, 'failed', now(), failure);
  }
}

/**
 * Processes artifacts one at a time, in the order they were queued (parsing runs in a worker, so
 * the API stays responsive). Whatever was processing when the app stopped is queued again at start.
 */
export class IngestQueue {
  private readonly pending: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Embedding runs beside parsing, so a long embedding never holds the next file back. */
  readonly embeddings: EmbedQueue;
  private readonly deps: IngestDeps;

  constructor(deps: IngestDeps) {
    this.embeddings = new EmbedQueue(deps);
    this.deps = { ...deps, embedLater: (kbId) => this.embeddings.enqueue(kbId) };
  }

  enqueue(artifactId: string): void {
    if (this.stopped || this.pending.includes(artifactId)) return;
    this.pending.push(artifactId);
    this.running ??= this.drain();
  }

  /** Start-up: resume what was processing when the app stopped, and the embedding left unfinished. */
  resume(): number {
    const stale = this.deps.repos.artifacts.withStatus('processing');
    for (const artifact of stale) this.enqueue(artifact.id);
    this.embeddings.resume();
    return stale.length;
  }

  /** Resolves once nothing is queued or running, embedding included. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
    await this.embeddings.idle();
    // Embedding may have ended while files were still queued (or the other way round).
    if (this.running) await this.idle();
  }

  stop(): void {
    this.stopped = true;
    this.pending.length = 0;
    this.embeddings.stop();
  }

  private async drain(): Promise<void> {
    try {
      for (let id = this.pending.shift(); id !== undefined && !this.stopped; id = this.pending.shift()) {
        await processArtifact(this.deps, id);
      }
    } finally {
      this.running = null;
    }
  }
}
