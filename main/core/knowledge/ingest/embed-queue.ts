import type { Repositories } from '../../../db/repositories/index.js';
import type { EmbeddingModel } from '../retrieval/embedder.js';
import { indexEmbeddings } from '../../../search/index.js';
import type { Logger } from '../../platform/logger.js';
import { errorText } from '../../../../shared/errors.js';
import { ALONE, type WorkClaims } from '../../platform/instances/membership.js';

export interface EmbedDeps {
  repos: Repositories;
  /** The configured embedding model, if any. */
  embedding: () => EmbeddingModel | undefined;
  log: Logger;
  /** With other instances on the database: a knowledge base is embedded by one at a time. */
  claims?: { embedding: WorkClaims } | undefined;
}

/**
 * Embeds knowledge bases in the background, one at a time, batch by batch, after their files are
 * ready: the next file is parsed meanwhile, and chat never waits for it (files are searchable by
 * keyword the moment they are ready). Each stored batch counts towards its files' progress
 * (`embedded_chunks`); a failure is kept on the files it left unfinished.
 */
export class EmbedQueue {
  private readonly pending: string[] = [];
  private running: Promise<void> | null = null;
  private stopped = false;
  /** The model `sync` last saw (its vectors' name), so that only a change starts work. */
  private lastModel: string | null | undefined;

  constructor(private readonly deps: EmbedDeps) {}

  enqueue(kbId: string): void {
    if (this.stopped || !this.deps.embedding() || this.pending.includes(kbId)) return;
    this.pending.push(kbId);
    this.running ??= this.drain();
  }

  /** Start-up: knowledge bases whose files were left waiting for vectors (a restart, another model). */
  resume(): number {
    if (!this.deps.embedding()) return 0;
    const waiting = this.deps.repos.artifacts.kbsWaitingForEmbedding();
    for (const kbId of waiting) this.enqueue(kbId);
    return waiting.length;
  }

  /**
   * The embedding model in effect may have changed (the configuration, a model found, bundled or
   * downloaded): with another model, every file's vectors are made again, in the background, from
   * the files already there (their progress starts over at once: the old model's vectors do not
   * serve the new one's questions); with the same one, what it left unembedded (files uploaded
   * while search was keyword-only) is embedded now.
   */
  sync(): void {
    const model = this.deps.embedding();
    const name = model?.name ?? null;
    if (this.stopped || name === this.lastModel) return;
    this.lastModel = name;
    if (!model) return;
    const index = this.deps.repos.chunks.vectorIndex();
    if (index && index.model !== model.name) this.deps.repos.artifacts.resetEmbedded();
    this.resume();
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more knowledge bases; resolves once the running pass stopped after its batch. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.length = 0;
    await this.idle();
  }

  private async drain(): Promise<void> {
    try {
      const claims = this.deps.claims?.embedding ?? ALONE;
      for (let kbId = this.pending.shift(); kbId !== undefined && !this.stopped; kbId = this.pending.shift()) {
        // Another live instance is embedding it; what its pass misses, a heartbeat's resume comes back to.
        if (!claims.claim(kbId)) continue;
        try {
          await this.embed(kbId);
        } finally {
          claims.release(kbId);
        }
      }
    } finally {
      this.running = null;
    }
  }

  private async embed(kbId: string): Promise<void> {
    const { repos, log } = this.deps;
    const model = this.deps.embedding();
    if (!model) return;
    let rebuilt = false;
    try {
      await indexEmbeddings(repos, model.embed, {
        model: model.name,
        kb_ids: [kbId],
        log: (m) => log.warn(m),
        stopped: () => this.stopped,
        onBatch: (chunkIds, reset) => {
          if (reset) {
            // Another model: every vector went with the old table, so every file starts over.
            repos.artifacts.resetEmbedded();
            rebuilt = true;
          }
          repos.artifacts.countEmbedded(chunkIds);
        },
      });
    } catch (error) {
      const reason = errorText(error);
      log.warn(`embedding the chunks of ${kbId} failed (${reason}); keyword search still finds them`);
      repos.artifacts.failEmbedding(kbId, reason);
      return;
    }
    if (rebuilt) for (const other of repos.artifacts.kbsWaitingForEmbedding()) if (other !== kbId) this.enqueue(other);
  }
}
