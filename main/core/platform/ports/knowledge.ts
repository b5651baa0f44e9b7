/*
 * What the core asks of the background work on files: knowledge/ingest/queue.ts and
 * knowledge/folders/watchers.ts implement these.
 */

/** Files waiting to be parsed, chunked and embedded. */
export interface IngestPort {
  /** Queues an artifact for processing (again, if it was processed before). */
  enqueue(artifactId: string): void;
  /**
   * Stops an artifact's processing where it stands (queued: taken off the queue; running: no more
   * chunks are written, and its parser process is stopped). The caller marks the artifact.
   */
  cancel(artifactId: string): void;
}

/** Watched folders being followed (issue 30). */
export interface FolderWatchersPort {
  /** Parley's data directory: never followed, nor a folder holding it. */
  readonly dataDir: string;
  /** Seconds between the polling fallback's scans. */
  readonly pollSeconds: number;
  start(folderId: string): void;
  stop(folderId: string): Promise<void>;
  following(folderId: string): boolean;
}
