import type { Readable } from 'node:stream';

/**
 * Where uploaded bytes live, as the core uses them: addressed by their SHA-256, parts of multi-part
 * uploads by artifact id and part number. `BlobStore` keeps them in the data directory (on a shared
 * volume for the team server); an object store (S3 and the like) is another implementation of this
 * interface, nothing in the core names a path but `withLocalFile`.
 */
export interface BlobStorage {
  /** Stores a whole file from a stream; refuses more than `limit` bytes (`TooManyBytes`). */
  put(source: Readable | AsyncIterable<Buffer>, limit: number): Promise<{ sha256: string; size: number }>;
  /** Stores one part of an upload; sending a part again replaces it. Answers the bytes received. */
  putPart(artifactId: string, part: number, source: Readable, limit: number): Promise<number>;
  /** Joins an upload's parts in order into one stored file, then forgets the parts. */
  assemble(artifactId: string, partCount: number, limit: number): Promise<{ sha256: string; size: number }>;
  dropParts(artifactId: string): Promise<void>;
  /** The stored bytes, or their first `end + 1`. */
  read(sha256: string, range?: { end: number }): Readable;
  /**
   * Runs `use` with a path on this machine holding the stored bytes (the parser processes read
   * files): the file itself here; a copy fetched first, and removed after, for an object store.
   */
  withLocalFile<T>(sha256: string, use: (path: string) => Promise<T>): Promise<T>;
  remove(sha256: string): Promise<void>;
  /**
   * Start-up cleanup, only when no other instance shares the storage (nothing else can be in
   * flight): captures a crash interrupted, stored files no artifact uses (synchronous, so no upload
   * can adopt one meanwhile), and artifacts that have parts waiting.
   */
  clearTemp(): void;
  removeUnusedSync(used: ReadonlySet<string>): number;
  partOwners(): Promise<string[]>;
}
