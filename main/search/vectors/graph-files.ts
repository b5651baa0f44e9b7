import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { chmod, open, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AnnParams } from './ann-params.js';

/**
 * The files of the saved HNSW graphs, beside the database in `<db>.vectors/`:
 * - `slot-<n>.json`, the meta: which vector version, model and dimension the graph holds, and
 *   which graph file (`graph`) holds it; replaced whole through a temp file and a rename;
 * - `slot-<n>.<pid>-<tag>.hnsw`, graph files, each written once under a name of its own and
 *   flushed before a meta names it.
 * A meta names only a complete graph, and a graph is removed only once no meta names it, so a
 * crash or a kill at any point leaves the previous pair or the new one; two processes sharing a
 * data directory never write the same file. (Before this, a graph was `slot-<n>.hnsw`, renamed
 * over; a meta without `graph` still names that file.)
 */

export interface GraphMeta {
  version: number;
  model: string;
  dimensions: number;
  params: AnnParams;
  /** The graph file's name in the directory. */
  graph?: string;
}

export const metaFile = (dir: string, slot: number) => join(dir, `slot-${slot}.json`);

/** The graphs hold the vectors of private text: only the user running Parley may read them, as the rest of the data directory. */
const PRIVATE_FILE = 0o600;
const posix = process.platform !== 'win32';

/** Creates the graphs' directory, 0700. */
export function ensureGraphDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** A graph file name no other writer uses: this process, the graphs' owner in it (`instance`), and a counter. */
export const newGraphFile = (dir: string, slot: number, instance: string, n: number) => join(dir, `slot-${slot}.${process.pid}-${instance}-${n}.hnsw`);

/** The meta of a knowledge base's saved graph, with the graph file's path; undefined when missing or unreadable. */
export function readGraphMeta(dir: string, slot: number): (GraphMeta & { file: string }) | undefined {
  try {
    const meta = JSON.parse(readFileSync(metaFile(dir, slot), 'utf8')) as GraphMeta;
    // Only a plain name inside the directory: the meta is data on disk, not a path to follow anywhere.
    const name = meta.graph ?? `slot-${slot}.hnsw`;
    if (basename(name) !== name) return undefined;
    return { ...meta, file: join(dir, name) };
  } catch {
    return undefined;
  }
}

const metaOf = (meta: GraphMeta, graphFile: string): string => JSON.stringify({ ...meta, graph: basename(graphFile) });

/** Names a complete, flushed graph file in the slot's meta (worker thread: synchronous). */
export function publishGraphSync(dir: string, slot: number, graphFile: string, meta: GraphMeta): void {
  if (posix) chmodSync(graphFile, PRIVATE_FILE);
  const fd = openSync(graphFile, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const tmp = `${graphFile}.json.tmp`;
  writeFileSync(tmp, metaOf(meta, graphFile), { flush: true, mode: PRIVATE_FILE });
  renameSync(tmp, metaFile(dir, slot));
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Names a complete graph file in the slot's meta, off the main thread (flushes, then a temp meta and a rename). */
export async function publishGraph(dir: string, slot: number, graphFile: string, meta: GraphMeta): Promise<void> {
  if (posix) await chmod(graphFile, PRIVATE_FILE);
  await syncFile(graphFile);
  const tmp = `${graphFile}.json.tmp`;
  await writeFile(tmp, metaOf(meta, graphFile), { flush: true, mode: PRIVATE_FILE });
  await rename(tmp, metaFile(dir, slot));
}

const alive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes graph files and temp files that no meta names and that are nobody's write in progress:
 * those of a process no longer running (a crash, a kill mid-write), of an earlier process that had
 * this pid, or — with `slot` — this owner's own older files of that slot (called after its save,
 * the slot's only writer here). Another running Parley's files are its own to remove.
 */
export function sweepGraphFiles(dir: string, instance: string, slot?: number): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const named = new Set<string>();
  for (const name of names) {
    const s = /^slot-(\d+)\.json$/.exec(name)?.[1];
    const meta = s === undefined ? undefined : readGraphMeta(dir, Number(s));
    if (meta) named.add(basename(meta.file));
  }
  for (const name of names) {
    if (named.has(name) || !(name.endsWith('.hnsw') || name.endsWith('.tmp'))) continue;
    if (slot !== undefined && !name.startsWith(`slot-${slot}.`)) continue;
    const writer = /^slot-\d+\.(\d+)-([0-9a-f]+)-\d+\.hnsw(?:\.json\.tmp)?$/.exec(name);
    const pid = writer ? Number(writer[1]) : undefined;
    const owner = writer?.[2];
    const stale =
      pid === undefined || // an older naming: nobody writes it any more
      (pid === process.pid ? owner !== instance || slot !== undefined : !alive(pid));
    if (stale) rmSync(join(dir, name), { force: true });
  }
}
