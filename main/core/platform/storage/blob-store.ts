import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readdirSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';
import type { BlobStorage } from './blob-storage.js';

/** Thrown when a stream carries more bytes than allowed. */
export class TooManyBytes extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/**
 * Uploaded bytes, addressed by their SHA-256 — never by a name a user chose — so no upload can
 * write outside the store, and identical files are stored once. Parts of multi-part uploads wait
 * in their own folder, named by artifact id and part number.
 */
export class BlobStore implements BlobStorage {
  private readonly blobs: string;
  private readonly parts: string;
  private readonly temp: string;

  /**
   * `writeDevice` (tests only, never from configuration): every captured stream is written to this
   * device instead of a temp file — `/dev/full` makes the kernel answer ENOSPC, a real full disk.
   */
  constructor(
    dataDir: string,
    private readonly options: { writeDevice?: string | undefined } = {},
  ) {
    this.blobs = join(dataDir, 'blobs');
    this.parts = join(dataDir, 'upload-parts');
    this.temp = join(dataDir, 'tmp');
  }

  /**
   * Start-up: temp files of captures a crash interrupted. Synchronous, so it is done before any new
   * capture can start writing there.
   */
  clearTemp(): void {
    rmSync(this.temp, { recursive: true, force: true });
  }

  /**
   * Start-up: removes stored blobs whose SHA-256 is not in `used` (a crash or a delete racing an
   * upload can leave one). Synchronous like `clearTemp`, so no upload can adopt a blob meanwhile.
   * Answers how many went.
   */
  removeUnusedSync(used: ReadonlySet<string>): number {
    let removed = 0;
    let prefixes: string[];
    try {
      prefixes = readdirSync(this.blobs).filter((name) => /^[0-9a-f]{2}$/.test(name));
    } catch {
      return 0;
    }
    for (const prefix of prefixes) {
      for (const name of readdirSync(join(this.blobs, prefix))) {
        if (!/^[0-9a-f]{64}$/.test(name) || !name.startsWith(prefix) || used.has(name)) continue;
        rmSync(join(this.blobs, prefix, name), { force: true });
        removed++;
      }
    }
    return removed;
  }

  /** Artifact ids that have parts waiting on disk. */
  async partOwners(): Promise<string[]> {
    try {
      return (await readdir(this.parts)).filter((name) => /^art_[A-Za-z0-9]+$/.test(name));
    } catch {
      return [];
    }
  }

  pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a sha256');
    return join(this.blobs, sha256.slice(0, 2), sha256);
  }

  private partPath(artifactId: string, part: number): string {
    if (!/^art_[A-Za-z0-9]+$/.test(artifactId) || !Number.isInteger(part)) throw new Error('bad part address');
    return join(this.parts, artifactId, String(part));
  }

  private async tempFile(): Promise<string> {
    await mkdir(this.temp, { recursive: true, mode: PRIVATE_DIR_MODE });
    return join(this.temp, randomBytes(12).toString('hex'));
  }

  /** Writes a stream to a temp file, counting and hashing; refuses more than `limit` bytes. */
  private async capture(source: Readable | AsyncIterable<Buffer>, limit: number): Promise<{ file: string; size: number; sha256: string }> {
    const device = this.options.writeDevice;
    const file = device ?? (await this.tempFile());
    const hash = createHash('sha256');
    let size = 0;
    try {
      await pipeline(
        source,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > limit) throw new TooManyBytes(limit);
            hash.update(chunk);
            yield chunk;
          }
        },
        createWriteStream(file, { mode: PRIVATE_FILE_MODE }),
      );
      return { file, size, sha256: hash.digest('hex') };
    } catch (error) {
      if (!device) await rm(file, { force: true });
      throw error;
    }
  }

  /** Moves a captured file to its content address (or drops it when those bytes are already stored). */
  private async adopt(file: string, sha256: string): Promise<void> {
    const target = this.pathOf(sha256);
    const exists = await stat(target).then(
      () => true,
      () => false,
    );
    if (exists) return void (await rm(file, { force: true }));
    await mkdir(join(this.blobs, sha256.slice(0, 2)), { recursive: true, mode: PRIVATE_DIR_MODE });
    await rename(file, target);
  }

  /** Stores a whole file from a stream (the multipart/form-data route). */
  async put(source: Readable | AsyncIterable<Buffer>, limit: number): Promise<{ sha256: string; size: number }> {
    const { file, size, sha256 } = await this.capture(source, limit);
    await this.adopt(file, sha256);
    return { sha256, size };
  }

  /** Stores one part; re-sending a part replaces it. Answers the bytes received. */
  async putPart(artifactId: string, part: number, source: Readable, limit: number): Promise<number> {
    const { file, size } = await this.capture(source, limit);
    const target = this.partPath(artifactId, part);
    await mkdir(join(this.parts, artifactId), { recursive: true, mode: PRIVATE_DIR_MODE });
    await rename(file, target);
    return size;
  }

  /** Joins the parts in order into one blob, then forgets the parts. */
  async assemble(artifactId: string, partCount: number, limit: number): Promise<{ sha256: string; size: number }> {
    const parts = Array.from({ length: partCount }, (_, i) => this.partPath(artifactId, i + 1));
    async function* concatenated() {
      for (const part of parts) for await (const chunk of createReadStream(part)) yield chunk as Buffer;
    }
    const stored = await this.put(concatenated(), limit);
    await this.dropParts(artifactId);
    return stored;
  }

  async dropParts(artifactId: string): Promise<void> {
    if (!/^art_[A-Za-z0-9]+$/.test(artifactId)) return;
    await rm(join(this.parts, artifactId), { recursive: true, force: true });
  }

  withLocalFile<T>(sha256: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.pathOf(sha256));
  }

  read(sha256: string, range?: { end: number }): Readable {
    return createReadStream(this.pathOf(sha256), range ? { start: 0, end: range.end } : {});
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }
}
