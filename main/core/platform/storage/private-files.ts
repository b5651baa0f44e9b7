import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Parley's own files in the data directory: only the user running it may read them. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** What a data directory holds that must not be readable by others (besides what lives in the folders). */
const KNOWN_FILES = ['parley.db', 'parley.db-wal', 'parley.db-shm', 'parley.toml', 'secret.key', 'credentials.key'];
const KNOWN_DIRS = ['blobs', 'upload-parts', 'tmp', 'logs', 'models', 'downloads'];
/** Folders whose files are all Parley's own and tightened one by one (a model download's part files). */
const PRIVATE_FILE_DIRS = ['downloads'];

const posix = process.platform !== 'win32';
const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Tightens one path to `mode` when group or others have any access; answers what it changed. */
function tighten(path: string, mode: number): string | null {
  if (!existsSync(path)) return null;
  const current = statSync(path).mode & 0o777;
  if ((current & 0o077) === 0) return null;
  chmodSync(path, mode);
  return octal(current);
}

/** The plain files directly in `dir` (none when it is absent). */
function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * Creates the data directory 0700, or tightens an existing one that others could read (with the
 * files Parley keeps in it, 0600, and its folders, 0700). Answers the one line to log when it
 * changed anything, or null. Permissions mean nothing on Windows (ACLs there): nothing to do.
 */
export function securePrivateDir(dir: string): string | null {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    if (posix) chmodSync(dir, PRIVATE_DIR_MODE); // mkdir's mode passes through the umask
    return null;
  }
  if (!posix) return null;
  const changed: string[] = [];
  const was = tighten(dir, PRIVATE_DIR_MODE);
  if (was) changed.push(`the directory from ${was} to 0700`);
  let files = 0;
  for (const name of KNOWN_FILES) if (tighten(join(dir, name), PRIVATE_FILE_MODE)) files++;
  for (const name of KNOWN_DIRS) if (tighten(join(dir, name), PRIVATE_DIR_MODE)) files++;
  for (const name of PRIVATE_FILE_DIRS) for (const file of filesIn(join(dir, name))) if (tighten(file, PRIVATE_FILE_MODE)) files++;
  if (files > 0) changed.push(`${files} file(s) and folder(s) in it to 0600/0700`);
  if (changed.length === 0) return null;
  return `The data directory ${dir} was readable by other local users; tightened ${changed.join(' and ')}.`;
}

/** Creates `file` empty with mode 0600 when it does not exist (SQLite then gives its WAL and SHM the same mode). */
export function ensurePrivateFile(file: string): void {
  if (existsSync(file)) return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (posix) chmodSync(file, PRIVATE_FILE_MODE);
}
