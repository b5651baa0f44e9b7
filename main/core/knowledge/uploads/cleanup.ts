/**
 * Nothing half-written outlives its upload: open uploads whose URLs expired are closed, their
 * unfinished artifacts deleted (their keys free again) with their parts; at start-up, form uploads
 * a crash or a full disk interrupted, temp files, and parts nobody owns go too. Runs at start-up
 * and then periodically (`UploadSweeper`, interval and clock injectable).
 */
import type { Repositories } from '../../../db/repositories/index.js';
import type { BlobStorage } from '../../platform/storage/blob-storage.js';
import type { Logger } from '../../platform/logger.js';
import { errorText } from '../../../../shared/errors.js';

export interface SweepDeps {
  repos: Repositories;
  blobs: BlobStorage;
  now: () => Date;
}

export interface SweepResult {
  expiredUploads: number;
  removedArtifacts: number;
  removedBlobs: number;
}

export async function sweepUploads(deps: SweepDeps, options: { startup: boolean }): Promise<SweepResult> {
  const { repos, blobs } = deps;
  const now = deps.now().toISOString();
  const result: SweepResult = { expiredUploads: 0, removedArtifacts: 0, removedBlobs: 0 };
  const dropped: string[] = [];
  // Before the first await: sweepUploads is called while nothing else runs yet (UploadSweeper.start).
  if (options.startup) blobs.clearTemp();
  repos.transaction(() => {
    for (const upload of repos.artifacts.expiredOpenUploads(now)) {
      repos.artifacts.setUploadStatus(upload.id, 'expired', now);
      result.expiredUploads++;
      for (const artifact of repos.artifacts.ofUpload(upload.id)) {
        if (artifact.status !== 'pending' && artifact.status !== 'uploading') continue;
        repos.artifacts.clearParts(artifact.id);
        repos.artifacts.delete(artifact.id);
        dropped.push(artifact.id);
      }
    }
    // Only at start-up is nothing in flight: a form upload still `uploading` then was cut off.
    if (options.startup) {
      for (const artifact of repos.artifacts.formUploadsInFlight()) {
        repos.artifacts.delete(artifact.id);
        dropped.push(artifact.id);
      }
    }
  });
  // Still before the first await: blobs no artifact uses (a dataset deleted while its upload was
  // being stored, before that was caught, or a crash between storing and recording) go too.
  if (options.startup) result.removedBlobs = blobs.removeUnusedSync(repos.artifacts.allShas());
  result.removedArtifacts = dropped.length;
  for (const id of dropped) await blobs.dropParts(id);
  if (options.startup) {
    for (const owner of await blobs.partOwners()) {
      const artifact = repos.artifacts.get(owner);
      if (!artifact || (artifact.status !== 'pending' && artifact.status !== 'uploading')) await blobs.dropParts(owner);
    }
  }
  return result;
}

/** Sweeps every `intervalMs` (unref'd: it never keeps the app alive). */
export class UploadSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: SweepDeps,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /**
   * The start-up sweep, then the periodic one. Resolves once the start-up sweep is done.
   * `nothingInFlight`: no other instance shares the data directory now, so half-written uploads,
   * temp files and unowned parts are a crash's leftovers (with another live, only expired uploads go).
   */
  start(options: { nothingInFlight: boolean } = { nothingInFlight: true }): Promise<unknown> {
    this.running = this.sweep(options.nothingInFlight);
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.sweep(false));
    }, this.intervalMs);
    this.timer.unref();
    return this.running;
  }

  /** No more sweeps; resolves once a sweep under way has ended. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async sweep(startup: boolean): Promise<void> {
    try {
      const { expiredUploads, removedArtifacts, removedBlobs } = await sweepUploads(this.deps, { startup });
      if (removedArtifacts > 0) this.log.info(`Cleaned up ${removedArtifacts} unfinished upload(s)${expiredUploads > 0 ? ` (${expiredUploads} expired)` : ''}.`);
      if (removedBlobs > 0) this.log.info(`Removed ${removedBlobs} stored file(s) no artifact uses.`);
    } catch (error) {
      this.log.warn(`cleaning up unfinished uploads failed: ${errorText(error)}`);
    }
  }
}
