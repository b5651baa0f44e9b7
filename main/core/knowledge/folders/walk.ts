import { opendir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isHidden, toKey, within } from './paths.js';

export interface WalkOptions {
  /** The folder's real path. */
  root: string;
  /** Parley's data directory (real path): never walked into. */
  dataDir: string;
  /** Stops the walk between entries (a pause, a removal). */
  stopped: () => boolean;
}

/**
 * Every regular file below `root` as a key relative to it, depth first, one directory handle open
 * at a time (`opendir` streams its entries: a directory of ten thousand files is never one array).
 * Hidden entries are skipped; symlinks are followed only to files inside the folder (a symlink to a
 * directory is not followed at all, so no loop can form); the data directory is never entered.
 */
export async function* walk(options: WalkOptions): AsyncGenerator<string> {
  const dirs: string[] = [''];
  while (dirs.length > 0 && !options.stopped()) {
    const rel = dirs.pop() as string;
    const abs = join(options.root, rel);
    let handle;
    try {
      handle = await opendir(abs);
    } catch {
      continue; // gone or unreadable meanwhile: the next event or scan sees what is there
    }
    for await (const entry of handle) {
      if (options.stopped()) break;
      if (entry.name.startsWith('.')) continue;
      const childRel = rel === '' ? entry.name : join(rel, entry.name);
      const childAbs = join(abs, entry.name);
      if (entry.isDirectory()) {
        if (!within(options.dataDir, childAbs)) dirs.push(childRel);
      } else if (entry.isFile()) {
        yield toKey(childRel);
      } else if (entry.isSymbolicLink() && (await symlinkToFileInside(options.root, childAbs))) {
        yield toKey(childRel);
      }
    }
  }
}

/** A symlink Parley follows: to a regular file inside the folder, not hidden on the way. */
export async function symlinkToFileInside(root: string, abs: string): Promise<boolean> {
  try {
    const target = await realpath(abs);
    if (!within(root, target) || target === root) return false;
    if (!(await stat(target)).isFile()) return false;
    return !isHidden(toKey(target.slice(root.length + 1)));
  } catch {
    return false; // dangling, a loop (ELOOP) or unreadable
  }
}
