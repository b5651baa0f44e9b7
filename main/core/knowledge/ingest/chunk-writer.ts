/**
 * Writes one artifact's chunks while they arrive from its parser process: each batch in a
 * transaction of its own, with a turn of the event loop before it. Indexing a large file thus
 * overlaps with the parser still sending, never holds the database for one long transaction
 * (other writes wait at most one batch), and never freezes the API: requests are answered between
 * batches. Until the artifact is marked ready its chunks may already be found by a search; a
 * failure removes them (see queue.ts), and a crash leaves the artifact `processing`, which the
 * next start processes again from scratch.
 */
import type { Repositories } from '../../../db/repositories/index.js';
import type { Chunk } from './types.js';

export interface ChunkWriterOptions {
  /** Called after each batch with the characters indexed so far. */
  onProgress?: (indexedChars: number) => void;
  /** Gives the event loop a turn before each batch (setImmediate; tests may count turns). */
  turn?: () => Promise<void>;
  /** Processing was cancelled: no batch is written after it, whatever is still queued or arriving. */
  cancelled?: AbortSignal;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ChunkWriter {
  /** Chunks written so far. */
  count = 0;
  /** The artifact was deleted (or moved) meanwhile: the remaining batches are dropped. */
  gone = false;
  private indexedChars = 0;
  private readonly batches: Chunk[][] = [];
  private draining: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly repos: Repositories,
    private readonly artifactId: string,
    private readonly kbId: string,
    private readonly options: ChunkWriterOptions = {},
  ) {}

  /** Queues a batch; it is written on a later turn of the event loop. */
  push(chunks: Chunk[]): void {
    if (this.gone || this.failure !== null || chunks.length === 0) return;
    this.batches.push(chunks);
    this.draining ??= this.drain();
  }

  /** Resolves once every queued batch is written; rejects with the first write error. */
  async done(): Promise<void> {
    while (this.draining) await this.draining;
    if (this.failure !== null) throw this.failure;
  }

  private async drain(): Promise<void> {
    const turn = this.options.turn ?? nextTurn;
    try {
      for (let batch = this.batches.shift(); batch; batch = this.batches.shift()) {
        await turn();
        // Checked in the same turn as the write: a cancel removes the chunks written before it, and none follow.
        const ids = this.options.cancelled?.aborted ? null : this.repos.chunks.appendForArtifact(this.artifactId, this.kbId, batch);
        if (!ids) {
          this.gone = true;
          this.batches.length = 0;
          return;
        }
        this.count += ids.length;
        for (const chunk of batch) this.indexedChars += chunk.text.length;
        this.options.onProgress?.(this.indexedChars);
      }
    } catch (error) {
      this.failure = error;
      this.batches.length = 0;
    } finally {
      this.draining = null;
    }
  }
}
