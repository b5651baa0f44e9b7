import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { expandSearchPath, type AppFolder, type FolderEnv } from './folders.js';
import { GgufError, readGgufHeader, type GgufHeader } from './gguf-header.js';
import { errorText } from '../../../shared/errors.js';

/** A GGUF file found on this machine, used where it lies (nothing is copied). */
export interface FoundFile {
  /** Stable for the path: `mdl_gguf<hash of the path>`. */
  id: string;
  path: string;
  name: string;
  size_bytes: number;
  modified_at: string;
  /** Where it was found: Parley's own folder, an app's folder, or a configured one. */
  found_in: 'data_dir' | AppFolder | 'folder';
  header: GgufHeader | null;
  /** Why the header could not be read (not GGUF, corrupt). */
  error: string | null;
}

const MAX_DEPTH = 6;
const MAX_ENTRIES = 20_000;
/** Shards after the first of a split model (`-00002-of-00003.gguf`): llama.cpp loads them through the first. */
const isLaterShard = (name: string) => Number(/-(\d+)-of-\d+\.gguf$/i.exec(name)?.[1] ?? 1) > 1;

export function localModelId(path: string): string {
  return `mdl_gguf${createHash('sha256').update(path).digest('hex').slice(0, 24)}`;
}

interface HeaderCacheEntry {
  size: number;
  mtimeMs: number;
  header: GgufHeader | null;
  error: string | null;
}

/** Headers are read once per file version (size and mtime), so a rescan costs a directory walk. */
export class HeaderCache {
  private readonly entries = new Map<string, HeaderCacheEntry>();

  async read(path: string, size: number, mtimeMs: number): Promise<{ header: GgufHeader | null; error: string | null }> {
    const cached = this.entries.get(path);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) return cached;
    let result: HeaderCacheEntry;
    try {
      result = { size, mtimeMs, header: await readGgufHeader(path), error: null };
    } catch (error) {
      result = { size, mtimeMs, header: null, error: error instanceof GgufError ? error.message : `The file could not be read: ${errorText(error)}` };
    }
    this.entries.set(path, result);
    return result;
  }
}

async function walk(folder: string, depth: number, found: string[], budget: { left: number }): Promise<void> {
  if (depth > MAX_DEPTH || budget.left <= 0) return;
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return; // absent or unreadable: nothing there for us
  }
  for (const entry of entries) {
    if (--budget.left <= 0) return;
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(path, depth + 1, found, budget);
    else if ((entry.isFile() || entry.isSymbolicLink()) && /\.gguf$/i.test(entry.name) && !isLaterShard(entry.name)) found.push(path);
  }
}

/** A readable name from the file: `Qwen2.5-0.5B-Instruct-Q4_K_M.gguf` → `Qwen2.5-0.5B-Instruct-Q4_K_M`. */
function nameFromFile(path: string): string {
  return basename(path).replace(/\.gguf$/i, '');
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
}

/** Every GGUF file in Parley's models folder and the search paths, with its header (or why it has none). */
export async function discoverFiles(options: DiscoverOptions): Promise<FoundFile[]> {
  const candidates: { path: string; name?: string; found_in: FoundFile['found_in'] }[] = [];
  const own: string[] = [];
  await walk(join(options.dataDir, 'models'), 0, own, { left: MAX_ENTRIES });
  candidates.push(...own.map((path) => ({ path, found_in: 'data_dir' as const })));
  for (const entry of options.searchPaths) {
    for (const { folder, app } of expandSearchPath(entry, options.env)) {
      if (app === 'ollama') {
        for (const m of await ollamaModels(folder)) candidates.push({ path: m.path, name: m.name, found_in: 'ollama' });
        continue;
      }
      const files: string[] = [];
      await walk(folder, 0, files, { left: MAX_ENTRIES });
      candidates.push(...files.map((path) => ({ path, found_in: app ?? ('folder' as const) })));
    }
  }
  const seen = new Set<string>();
  const out: FoundFile[] = [];
  for (const c of candidates) {
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    let info;
    try {
      info = await stat(c.path);
    } catch {
      continue; // a dangling link or a blob Ollama removed
    }
    if (!info.isFile()) continue;
    const { header, error } = await options.headers.read(c.path, info.size, info.mtimeMs);
    // Vision projectors (mmproj) are companions of a model, not models.
    if (header?.architecture === 'clip') continue;
    out.push({
      id: localModelId(c.path),
      path: c.path,
      name: c.name ?? header?.name ?? nameFromFile(c.path),
      size_bytes: info.size,
      modified_at: info.mtime.toISOString(),
      found_in: c.found_in,
      header,
      error,
    });
  }
  return out;
}
