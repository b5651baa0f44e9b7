import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, linkSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { open, statfs } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { errorText } from '../../../../../shared/errors.js';

/** The first bytes of every GGUF file. */
export const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');

/** Where local models live; the discovery of local models lists every `.gguf` here. */
export const modelsDir = (dataDir: string) => join(dataDir, 'models');

/**
 * Where the bytes of unfinished downloads live: in the data directory (same file system as
 * `models/`, so the final move is a rename) but outside `models/`, so discovery never lists a
 * half-written file.
 */
export const downloadsDir = (dataDir: string) => join(dataDir, 'downloads');
export const partPath = (dataDir: string, id: string) => join(downloadsDir(dataDir), `${id}.part`);

/** Downloads are the user's own files: only they may read them (0600 files in a 0700 folder). */
export const PRIVATE_FILE = 0o600;
const PRIVATE_DIR = 0o700;

/** Creates `dir` 0700, or makes an existing one so (mkdir's mode passes through the umask). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform !== 'win32') chmodSync(dir, PRIVATE_DIR);
}

/** The size of a file, 0 when it does not exist. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

export async function sha256OfFile(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, ...(signal ? { signal } : {}) })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export async function startsWithGguf(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(GGUF_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === head.length && head.equals(GGUF_MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * The file name a download gets: the one asked for, or the URL's last path segment, reduced to a
 * plain name (no folders, no leading dot) that ends in `.gguf`.
 */
export function fileNameFor(url: string, asked: string | undefined, fallback: string): string {
  let base = asked?.trim() ?? '';
  if (!base) {
    try {
      const last = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
      base = decodeURIComponent(last);
    } catch {
      base = '';
    }
  }
  base = base
    .replace(/[^A-Za-z0-9._ ()+-]+/g, '-')
    .replace(/^[.\s-]+/, '')
    .slice(0, 190)
    .trim();
  if (!base) base = fallback;
  return extname(base).toLowerCase() === '.gguf' ? base : `${base}.gguf`;
}

/** `name.gguf`, `name (2).gguf`, `name (3).gguf`, … */
function numbered(fileName: string, n: number): string {
  if (n === 1) return fileName;
  const ext = extname(fileName);
  return `${fileName.slice(0, fileName.length - ext.length)} (${n})${ext}`;
}

export interface Installed {
  fileName: string;
  /** True when an identical file was already there (nothing was moved). */
  alreadyThere: boolean;
}

/**
 * Moves the verified part file into `dir` under `fileName`, atomically and never over another
 * file: a hard link fails when the name is taken (rename would silently replace it). An identical
 * file already there is kept as it is; a different one keeps its name and the download takes the
 * next free `name (n).gguf`. File systems without hard links fall back to rename after a check.
 */
export async function installFile(part: string, dir: string, fileName: string, sha256: string): Promise<Installed> {
  const size = sizeOf(part);
  for (let n = 1; n <= 1000; n++) {
    const name = numbered(fileName, n);
    const target = join(dir, name);
    if (existsSync(target)) {
      if (sizeOf(target) === size && (await sha256OfFile(target)) === sha256) {
        removeQuietly(part);
        return { fileName: name, alreadyThere: true };
      }
      continue;
    }
    try {
      linkSync(part, target);
      removeQuietly(part);
      return { fileName: name, alreadyThere: false };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
      renameSync(part, target);
      return { fileName: name, alreadyThere: false };
    }
  }
  throw new Error(`There are already 1000 files named like ${fileName} in the models folder.`);
}

/**
 * Bytes an unprivileged process may still write on the file system holding `dir`; null when the
 * platform cannot tell (then no check is made rather than refusing every download).
 */
export async function freeBytesOf(dir: string): Promise<number | null> {
  try {
    const stats = await statfs(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}


/** A file-system failure as a sentence a person can act on. */
export function describeDiskError(error: unknown, what: string): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOSPC':
      return `The disk is full: ${what} could not be written. Free some space and download again.`;
    case 'EDQUOT':
      return `The disk quota is exhausted: ${what} could not be written.`;
    case 'EACCES':
    case 'EPERM':
      return `Parley may not write ${what}: permission denied.`;
    case 'EROFS':
      return `The data directory is on a read-only file system: ${what} could not be written.`;
    case 'EIO':
      return `The disk reported an input/output error while writing ${what}.`;
    default:
      return `${what} could not be written: ${errorText(error)}`;
  }
}

/**
 * Whether the host of `url` accepts a TCP connection now: the cheapest sign that the network (and
 * the server) is back. Never throws; a connection that does not open within `timeoutMs` is a no.
 */
export function hostAnswers(url: string, timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve(false);
    }
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    const socket = connect({ host: target.hostname.replace(/^\[|\]$/g, ''), port });
    const end = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(timeoutMs, () => end(false));
    socket.once('connect', () => end(true));
    socket.once('error', () => end(false));
  });
}
