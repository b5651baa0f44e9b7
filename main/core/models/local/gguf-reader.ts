import { open } from 'node:fs/promises';

/**
 * A bounded, windowed reader over the start of a GGUF file. A header is attacker-controlled input
 * (any file dropped in a models folder, registered by path or downloaded by URL), so every length
 * it states is checked against the bytes actually left before it is believed: one window buffer
 * is allocated for the whole read, nothing past `limit` is read, and long values are stepped over
 * by seeking, never loaded.
 */

/** The part of a file the reader uses; a `FileHandle` is one. Tests wrap it to watch what is read. */
export interface HeaderFile {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number }>;
  close(): Promise<void>;
}

export interface GgufReadOptions {
  /** Opens the file; `fs.promises.open` by default. */
  open?: (path: string) => Promise<HeaderFile>;
  /** Time the whole header may take; a header still unread then fails the file. */
  budgetMs?: number;
  /** Milliseconds, monotonic; `performance.now` by default (tests move it by hand). */
  now?: () => number;
}

/** A file that is not a GGUF Parley can read, with the reason a user sees. */
export class GgufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GgufError';
  }
}

/**
 * Bytes of a file a header may span. Real headers are a few MB (a 256k-token vocabulary with its
 * scores and merges is under 20 MB); anything larger is corrupt or built to exhaust the reader.
 */
export const MAX_HEADER_BYTES = 64 * 1024 * 1024;
/** The one buffer a read allocates: file reads are this size at most. */
export const HEADER_WINDOW = 1024 * 1024;
/** Enough for a folder of hundreds of real headers; a header still unread after it is refused. */
export const DEFAULT_BUDGET_MS = 5000;

const TWO_32 = 2 ** 32;
const MB = 1024 * 1024;

export const openHeaderFile = (path: string): Promise<HeaderFile> => open(path, 'r');

export class BoundedReader {
  private readonly window = Buffer.alloc(HEADER_WINDOW);
  /** File offset of window[0]. */
  private start = 0;
  /** Valid bytes in the window. */
  private length = 0;
  /** Read position within the window. */
  private at = 0;
  private readonly deadline: number;

  /** `limit`: the bytes this header may span (the file's size or MAX_HEADER_BYTES, the smaller). */
  constructor(
    private readonly file: HeaderFile,
    readonly limit: number,
    private readonly fileSize: number,
    private readonly now: () => number,
    budgetMs: number,
  ) {
    this.deadline = now() + budgetMs;
  }

  get offset(): number {
    return this.start + this.at;
  }

  /** Bytes between the read position and the limit: no stated length or count may exceed what they can hold. */
  left(): number {
    return this.limit - this.offset;
  }

  /** Bytes ready in the window, readable without touching the file. */
  buffered(): number {
    return this.length - this.at;
  }

  /** Throws once the time budget is spent; called per window and per run of entries. */
  checkBudget(): void {
    if (this.now() > this.deadline) throw new GgufError('Reading the GGUF header took too long (a corrupt or hostile file); it was given up.');
  }

  /** The failure for a header that claims more than the bytes left. */
  beyond(what: string): GgufError {
    if (this.limit < this.fileSize) {
      return new GgufError(`The GGUF header is larger than the ${MAX_HEADER_BYTES / MB} MB Parley reads (${what} reaches past it): a corrupt or hostile file.`);
    }
    return new GgufError(`The file ends inside its GGUF header (${what} reaches past its end): truncated or corrupt.`);
  }

  /** Makes `n` bytes (at most a window) readable at `at`. */
  async fill(n: number, what = 'a value'): Promise<void> {
    if (this.buffered() >= n) return;
    if (n > this.left()) throw this.beyond(what);
    this.checkBudget();
    this.window.copy(this.window, 0, this.at, this.length);
    this.start += this.at;
    this.length -= this.at;
    this.at = 0;
    while (this.length < n) {
      const want = Math.min(this.window.length - this.length, this.limit - (this.start + this.length));
      const { bytesRead } = await this.file.read(this.window, this.length, want, this.start + this.length);
      if (bytesRead <= 0) throw this.beyond(what);
      this.length += bytesRead;
    }
  }

  /** Steps over `n` bytes; past the window it seeks (nothing in between is read). */
  skip(n: number, what = 'a value'): void {
    if (n > this.left()) throw this.beyond(what);
    if (n <= this.buffered()) {
      this.at += n;
      return;
    }
    this.start = this.offset + n;
    this.length = 0;
    this.at = 0;
  }

  /** `n` bytes as a view into the window (valid until the next read); `n` ≤ HEADER_WINDOW. */
  async bytes(n: number, what?: string): Promise<Buffer> {
    await this.fill(n, what);
    const out = this.window.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  async u32(): Promise<number> {
    await this.fill(4);
    return this.u32Now();
  }

  /** A u64 as a number; one past 2^53 is no real size or count. */
  async u64(what = 'a size'): Promise<number> {
    await this.fill(8, what);
    return this.u64Now(what);
  }

  /** Reads a u32 already in the window. */
  u32Now(): number {
    const v = this.window.readUInt32LE(this.at);
    this.at += 4;
    return v;
  }

  /** Reads a u64 already in the window. */
  u64Now(what = 'a size'): number {
    const low = this.window.readUInt32LE(this.at);
    const high = this.window.readUInt32LE(this.at + 4);
    this.at += 8;
    const v = high * TWO_32 + low;
    if (!Number.isSafeInteger(v)) throw new GgufError(`The GGUF header holds an impossible ${what} (corrupt file).`);
    return v;
  }
}
