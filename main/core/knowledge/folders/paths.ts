import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { ServiceError } from '../../../../shared/errors.js';

/** A 422 naming `path`, as every refused folder path is. */
const badPath = (detail: string) => new ServiceError('unprocessable', detail, [{ path: 'path', message: detail }]);

/** Whether `inner` is `outer` or below it (both resolved). */
export function within(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Checks a folder a caller asks to follow and answers its real path: absolute, an existing readable
 * directory, under `[folders] allowed_roots` when set, and neither inside Parley's data directory nor
 * holding it (Parley would follow its own writes).
 */
export async function checkFolderPath(path: string, allowedRoots: readonly string[], dataDir: string): Promise<string> {
  if (!isAbsolute(path)) throw badPath(`${JSON.stringify(path)} is not an absolute path.`);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw badPath(`${JSON.stringify(path)} does not exist.`);
  }
  const info = await stat(real);
  if (!info.isDirectory()) throw badPath(`${JSON.stringify(path)} is not a directory.`);
  try {
    await access(real, constants.R_OK | constants.X_OK);
  } catch {
    throw badPath(`${JSON.stringify(path)} cannot be read by Parley.`);
  }
  if (allowedRoots.length > 0) {
    const roots = await Promise.all(allowedRoots.map((r) => realpath(r).catch(() => resolve(r))));
    if (!roots.some((root) => within(root, real))) {
      throw badPath(`${JSON.stringify(path)} is not under the folders this server allows ([folders] allowed_roots: ${allowedRoots.join(', ')}).`);
    }
  }
  const data = await realpath(dataDir).catch(() => resolve(dataDir));
  if (within(data, real) || within(real, data)) throw badPath(`${JSON.stringify(path)} holds or is inside Parley's own data directory.`);
  return real;
}

/** `a\\b` → `a/b`: keys use `/` whatever the platform. */
export const toKey = (rel: string): string => (sep === '/' ? rel : rel.split(sep).join('/'));

/** Whether any segment of a relative path is hidden (`.git/x`, `.DS_Store`). */
export const isHidden = (key: string): boolean => key.split('/').some((part) => part.startsWith('.'));

/** The globs of a folder as one test over keys: included (all when none) and not excluded. */
export function globFilter(include: readonly string[], exclude: readonly string[]): (key: string) => boolean {
  const inc = include.length > 0 ? picomatch([...include], { dot: false }) : () => true;
  const exc = exclude.length > 0 ? picomatch([...exclude], { dot: false }) : () => false;
  return (key) => inc(key) && !exc(key);
}
