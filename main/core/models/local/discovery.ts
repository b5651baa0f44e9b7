import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { searchFolders, type FolderEnv } from './folders.js';
import { GgufError, readGgufHeader, type GgufHeader, type GgufReadOptions } from './gguf-header.js';
import { distinguishNames, nameFromFile } from './model-names.js';
import { isLaterShard, modelSize } from './split-models.js';
import { errorText } from '../../../../shared/errors.js';
import type { FoundFile } from '../../platform/ports/local-models.js';

export type { FoundFile };

const MAX_DEPTH = 6;
const MAX_ENTRIES = 20_000;

export function localModelId(path: string): string {
  return `mdl_gguf${createHash('sha256').update(path).digest('hex').slice(0, 24)}`;
}

interface HeaderCacheEntry {
  size: number;
  mtimeMs: number;
  read: Promise<{ header: GgufHeader | null; error: string | null }>;
}

/**
 * Headers are read once per file version (path, size and mtime), so a rescan costs a directory
 * walk: a file that failed (corrupt, hostile, too slow to read) is remembered with its reason and
 * not read again until it changes. Concurrent reads of one version share the read.
 */
export class HeaderCache {
  private readonly entries = new Map<string, HeaderCacheEntry>();

  constructor(private readonly options: GgufReadOptions = {}) {}

  read(path: string, size: number, mtimeMs: number): Promise<{ header: GgufHeader | null; error: string | null }> {
    const cached = this.entries.get(path);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return cached.read;
    const read = readGgufHeader(path, this.options).then(
      (header) => ({ header, error: null }),
      (error: unknown) => ({ header: null, error: error instanceof GgufError ? error.message : `The file could not be read: ${errorText(error)}` }),
    );
    this.entries.set(path, { size, mtimeMs, read });
    return read;
  }
}

interface Walk {
  /** Entries this root may still look at. */
  left: number;
  /**
   * Real paths of the folders walked in this scan, at the least depth: a folder linked twice, or a
   * link to an ancestor, is walked once (again only when reached nearer a root, where more of it fits).
   */
  seen: Map<string, number>;
}

async function walk(folder: string, depth: number, found: string[], state: Walk): Promise<void> {
  if (depth > MAX_DEPTH || state.left <= 0) return;
  let entries: Dirent[];
  try {
    const real = await realpath(folder);
    const before = state.seen.get(real);
    if (before !== undefined && before <= depth) return;
    state.seen.set(real, depth);
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return; // absent or unreadable: nothing there for us
  }
  for (const entry of entries) {
    if (--state.left <= 0) return;
    const path = join(folder, entry.name);
    let isDirectory = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      // Model folders are often links to a bigger disk: follow them (`seen` stops loops).
      try {
        const target = await stat(path);
        isDirectory = target.isDirectory();
        isFile = target.isFile();
      } catch {
        continue; // dangling
      }
    }
    if (isDirectory && !entry.name.startsWith('.')) await walk(path, depth + 1, found, state);
    else if (isFile && /\.gguf$/i.test(entry.name) && !isLaterShard(entry.name)) found.push(path);
  }
}

/**
 * Ollama's store: `manifests/<registry>/<namespace>/<model>/<tag>` are JSON manifests whose layer
 * of media type `application/vnd.ollama.image.model` names (by digest) the blob in `blobs/` that is
 * the GGUF file. The model is named as Ollama names it (`llama3.1:8b`, the `library` namespace
 * of the default registry left out).
 */
async function ollamaModels(store: string): Promise<{ path: string; name: string }[]> {
  const manifests = join(store, 'manifests');
  const files: string[] = [];
  async function collect(folder: string, depth: number) {
    if (depth > 5) return;
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(folder, e.name);
      if (e.isDirectory()) await collect(p, depth + 1);
      else if (e.isFile()) files.push(p);
    }
  }
  await collect(manifests, 0);
  const out: { path: string; name: string }[] = [];
  for (const file of files) {
    try {
      const manifest = JSON.parse(await readFile(file, 'utf8')) as { layers?: { mediaType?: unknown; digest?: unknown }[] };
      const layer = manifest.layers?.find((l) => l.mediaType === 'application/vnd.ollama.image.model');
      if (typeof layer?.digest !== 'string' || !/^sha256[:-][0-9a-f]{64}$/.test(layer.digest)) continue;
      const parts = relative(manifests, file).split(sep);
      const tag = parts.pop() ?? 'latest';
      const model = parts.pop() ?? 'model';
      const namespace = parts.pop();
      const registry = parts.pop();
      const prefix = registry === 'registry.ollama.ai' && namespace === 'library' ? '' : `${namespace ?? ''}/`;
      out.push({ path: join(store, 'blobs', layer.digest.replace(':', '-')), name: `${prefix}${model}:${tag}` });
    } catch {
      // Not a manifest we understand: skip it.
    }
  }
  return out;
}

export interface DiscoverOptions {
  dataDir: string;
  searchPaths: string[];
  env: FolderEnv;
  headers: HeaderCache;
  /** The models shipped with the app (`process.resourcesPath/models`), walked first. */
  bundledDir?: string | undefined;
}

/**
 * Every GGUF model in Parley's models folder and the search paths, with its header (or why it has
 * none), each file once however many folders or links lead to it.
 */
export async function discoverFiles(options: DiscoverOptions): Promise<FoundFile[]> {
  const candidates: { path: string; name?: string; found_in: FoundFile['found_in'] }[] = [];
  const seenFolders = new Map<string, number>();
  const bundled: string[] = [];
  if (options.bundledDir) await walk(options.bundledDir, 0, bundled, { left: MAX_ENTRIES, seen: seenFolders });
  candidates.push(...bundled.map((path) => ({ path, found_in: 'bundled' as const })));
  const own: string[] = [];
  await walk(join(options.dataDir, 'models'), 0, own, { left: MAX_ENTRIES, seen: seenFolders });
  candidates.push(...own.map((path) => ({ path, found_in: 'data_dir' as const })));
  for (const entry of options.searchPaths) {
    for (const { folder, app } of await searchFolders(entry, options.env)) {
      if (app === 'ollama') {
        for (const m of await ollamaModels(folder)) candidates.push({ path: m.path, name: m.name, found_in: 'ollama' });
        continue;
      }
      const files: string[] = [];
      await walk(folder, 0, files, { left: MAX_ENTRIES, seen: seenFolders });
      candidates.push(...files.map((path) => ({ path, found_in: app ?? ('folder' as const) })));
    }
  }
  const seenFiles = new Set<string>();
  const out: FoundFile[] = [];
  for (const c of candidates) {
    let info;
    let real;
    try {
      info = await stat(c.path);
      real = await realpath(c.path);
    } catch {
      continue; // a dangling link or a blob Ollama removed
    }
    if (!info.isFile()) continue;
    // The same file by a link, or hard-linked between two apps' folders: listed once, as first found.
    const inode = info.ino > 0 && Number.isSafeInteger(info.ino) ? `${info.dev}:${info.ino}` : real;
    if (seenFiles.has(real) || seenFiles.has(inode)) continue;
    seenFiles.add(real).add(inode);
    const { header, error } = await options.headers.read(c.path, info.size, info.mtimeMs);
    // Vision projectors (mmproj) are companions of a model, not models.
    if (header?.architecture === 'clip') continue;
    const { size, missing } = await modelSize(c.path, info.size);
    out.push({
      id: localModelId(c.path),
      path: c.path,
      name: c.name ?? header?.name ?? nameFromFile(c.path),
      size_bytes: size,
      modified_at: info.mtime.toISOString(),
      found_in: c.found_in,
      header,
      error: error ?? missing,
    });
  }
  return distinguishNames(out);
}
