import { ServiceError, errorText } from '../../../../shared/errors.js';
import type { Config } from '../../../../shared/config.js';
import type { Repositories } from '../../../db/repositories/index.js';
import type { BlobStorage } from '../../platform/storage/blob-storage.js';
import { detectMime } from './mime.js';
import { refusalOf } from './refusal.js';
import { ChunkWriter } from './chunk-writer.js';
import { PARSE_POOL_SIZE, streamChunks } from './parse.js';
import { IngestError } from './types.js';
import type { EmbeddingModel } from '../retrieval/embedder.js';
import type { Logger } from '../../platform/logger.js';
import type { IngestPort } from '../../platform/ports/knowledge.js';
import { EmbedQueue } from './embed-queue.js';
import { ALONE, type WorkClaims } from '../../platform/instances/membership.js';
import type { NoticesPort } from '../../platform/ports/notices.js';

const MB = 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;

export interface IngestDeps {
  repos: Repositories;
  blobs: BlobStorage;
  config: () => Config;
  /** The configured embedding model, if any: chunks are embedded once indexed. */
  embedding: () => EmbeddingModel | undefined;
  log: Logger;
  /** Queues a knowledge base for embedding once a file of it is ready (IngestQueue sets it). */
  embedLater?: (kbId: string) => void;
  /** With other instances on the database: a file is processed, a knowledge base embedded, by one at a time. */
  claims?: { ingest: WorkClaims; embedding: WorkClaims } | undefined;
  /** How a cancel reaches the instance processing the file (`ingest.cancel`). */
  notices?: NoticesPort | undefined;
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
export async function processArtifact(deps: IngestDeps, artifactId: string, stopped: () => boolean = () => false, cancelled?: AbortSignal): Promise<void> {
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
    // Shutdown began meanwhile: leave the file `processing`; the next start resumes it.
    if (stopped() || cancelled?.aborted) return;
    const detected = detectMime({ bytes: head, filename: artifact.filename, declared: artifact.declared_mime_type });
    // Kept on a refused file too: the app tells an admin which type `[uploads] allowed_types` lacks.
    repos.artifacts.setStored(artifact.id, artifact.sha256, detected.mime, now());
    const refused = refusalOf(detected, artifact.declared_mime_type, uploads.allowed_types);
    if (refused) throw refused;
    repos.artifacts.setProgress(artifact.id, 0.1, now());
    // A file processed again (retry, resumed after a crash) starts from no chunks; a ready file
    // parsed again for new bytes (a followed folder's) keeps its old chunks searchable until the end.
    if (artifact.replacing) repos.chunks.dropUnreadyOf(artifact.id);
    else repos.chunks.replaceForArtifact(artifact.id, artifact.kb_id, []);
    let reported = 0.1;
    const writer = new ChunkWriter(repos, artifact.id, artifact.kb_id, {
      ...(cancelled ? { cancelled } : {}),
      onProgress: (chars) => {
        // Parsing is done once chunks arrive; indexing fills the rest, by characters (~ bytes).
        const progress = Math.min(0.95, 0.6 + (0.35 * chars) / artifact.size);
        if (progress - reported < 0.01) return;
        reported = progress;
        repos.artifacts.setProgress(artifact.id, progress, now());
      },
    });
    let doc: { metadata: Record<string, string | number> };
    try {
      doc = await blobs.withLocalFile(artifact.sha256, (path) =>
        streamChunks(
          { path, size: artifact.size, mime: detected.mime, filename: artifact.filename },
          { maxBytes: uploads.max_file_mb * MB, timeoutMs: uploads.parse_timeout_seconds * 1000, memoryMb: uploads.parse_memory_mb, ...(cancelled ? { signal: cancelled } : {}) },
          (batch) => writer.push(batch),
        ),
      );
    } finally {
      // Whatever the parser's outcome, no batch is still being written when this goes on.
      await writer.done().catch(() => undefined);
    }
    await writer.done();
    // Shutdown began meanwhile: leave the file `processing`; the next start indexes it from the beginning.
    if (stopped()) return;
    // Cancelled meanwhile: whoever cancelled it removed its chunks and marked it.
    if (cancelled?.aborted) return;
    // Deleted meanwhile: its chunks went with it (the cascade), nothing to mark.
    if (writer.gone || !repos.artifacts.get(artifact.id)) return;
    // New bytes arrived meanwhile (a followed folder's file changed again): this parse is stale;
    // the file stays processing and the queue runs it again (IngestQueue.enqueue).
    if (repos.artifacts.get(artifact.id)?.sha256 !== artifact.sha256) return;
    if (writer.count === 0) throw new IngestError('empty', 'The file has no text to search.');
    // One transaction: the old version's chunks go as the new ones become searchable.
    repos.transaction(() => {
      if (artifact.replacing) repos.chunks.dropSearchableOf(artifact.id);
      repos.artifacts.setReady(artifact.id, { mime_type: detected.mime, chunk_count: writer.count, metadata: doc.metadata, now: now() });
    });
    // Keep the document frequencies that query pruning uses close to the corpus once it grew by a
    // tenth: read in a worker thread (seconds at a million chunks), so no request waits for it.
    repos.chunks.refreshTermStatsInBackground().catch((error: unknown) => deps.log.warn(`refreshing the term statistics failed: ${String(error)}`));
    // Vectors follow in the background (EmbedQueue): the file is searchable by keyword already.
    deps.embedLater?.(artifact.kb_id);
  } catch (error) {
    const failure =
      error instanceof IngestError
        ? { code: error.code, detail: error.message }
        : error instanceof ServiceError
          ? { code: error.code, detail: error.message }
          : { code: 'parse_error', detail: `The file could not be processed: ${errorText(error)}` };
    if (!(error instanceof IngestError)) deps.log.warn(`processing ${artifact.id} failed: ${String(error)}`);
    // A job cut short by shutdown is not a failure: it is resumed at the next start; a cancelled one is marked by whoever cancelled it.
    if (stopped() || cancelled?.aborted) return;
    // New bytes arrived meanwhile: this outcome is about the old ones; the queue runs it again.
    const current = repos.artifacts.get(artifact.id);
    if (current && current.sha256 !== artifact.sha256) return;
    if (current) {
      // Chunks indexed before the failure go: a failed file is not searchable.
      repos.transaction(() => {
        repos.chunks.replaceForArtifact(artifact.id, artifact.kb_id, []);
        repos.artifacts.setStatus(artifact.id, 'failed', now(), failure);
      });
    }
  }
}

/**
 * Processes queued artifacts, up to `PARSE_POOL_SIZE` at once, started in the order they were
 * queued: while one file is parsed in a parser process, another's chunks are indexed here, so the
 * cores stay busy; many small files do not wait for each other's round trips. Whatever was
 * processing when the app stopped is queued again at start.
 */
export class IngestQueue implements IngestPort {
  private readonly pending: string[] = [];
  private readonly queued = new Set<string>();
  /** Files asked for again while being processed. */
  private readonly again = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** The files being processed now, each with what cancels it. */
  private readonly processing = new Map<string, AbortController>();
  /** Lanes taking files; counted down the moment one finds the queue empty. */
  private lanes = 0;
  private stopped = false;
  /** Embedding runs beside parsing, so a long embedding never holds the next file back. */
  readonly embeddings: EmbedQueue;
  private readonly deps: IngestDeps;

  constructor(
    deps: IngestDeps,
    private readonly concurrency = PARSE_POOL_SIZE,
  ) {
    this.embeddings = new EmbedQueue(deps);
    this.deps = { ...deps, embedLater: (kbId) => this.embeddings.enqueue(kbId) };
    deps.notices?.on('ingest.cancel', (id) => this.stopHere(id));
  }

  enqueue(artifactId: string): void {
    if (this.stopped) return;
    if (this.queued.has(artifactId)) {
      // Already being processed: its content may have changed since it started, so once done it goes again.
      if (!this.pending.includes(artifactId)) this.again.add(artifactId);
      return;
    }
    this.pending.push(artifactId);
    this.queued.add(artifactId);
    if (this.lanes >= this.concurrency) return;
    this.lanes++;
    const lane: Promise<void> = this.lane().finally(() => this.running.delete(lane));
    this.running.add(lane);
  }

  cancel(artifactId: string): void {
    this.stopHere(artifactId);
    // Another live instance is processing it: that one stops it (the caller marks the file).
    if (this.claims.heldElsewhere(artifactId)) this.deps.notices?.publish('ingest.cancel', artifactId);
  }

  private stopHere(artifactId: string): void {
    const at = this.pending.indexOf(artifactId);
    if (at !== -1) {
      this.pending.splice(at, 1);
      this.queued.delete(artifactId);
    }
    this.again.delete(artifactId);
    this.processing.get(artifactId)?.abort();
  }

  /**
   * Start-up, then every heartbeat: what is processing with nobody live on it (this instance's last
   * run, or a dead instance's), and the embedding left unfinished. Answers how many files it took.
   */
  resume(): number {
    const stale = this.deps.repos.artifacts.withStatus('processing').filter((a) => !this.queued.has(a.id) && this.claims.claim(a.id));
    for (const artifact of stale) this.enqueue(artifact.id);
    this.embeddings.resume();
    return stale.length;
  }

  /** This instance's claims on files (all its own when it is alone). */
  private get claims(): WorkClaims {
    return this.deps.claims?.ingest ?? ALONE;
  }

  /** Files queued or being processed. */
  get size(): number {
    return this.queued.size;
  }

  /** Resolves once nothing is queued or running, embedding included. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running);
    await this.embeddings.idle();
    // Embedding may have ended while files were still queued (or the other way round).
    if (this.running.size > 0) await this.idle();
  }

  /** Takes no more files; resolves once the one being processed has stopped where it stands. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.length = 0;
    await Promise.all([this.embeddings.stop(), this.idle()]);
  }

  /** One lane: takes the next queued file until none is left. */
  private async lane(): Promise<void> {
    try {
      const claims = this.claims;
      for (let id = this.pending.shift(); id !== undefined && !this.stopped; id = this.pending.shift()) {
        // Another live instance is processing it: that one finishes it.
        if (!claims.claim(id)) {
          this.queued.delete(id);
          this.again.delete(id);
          continue;
        }
        const cancel = new AbortController();
        this.processing.set(id, cancel);
        try {
          await processArtifact(this.deps, id, () => this.stopped, cancel.signal);
        } finally {
          this.processing.delete(id);
          this.queued.delete(id);
          // Shut down mid-way, it stays processing: another live instance may take it up at once.
          claims.release(id);
          if (this.again.delete(id)) this.enqueue(id);
        }
      }
    } finally {
      this.lanes--;
    }
  }
}
