import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Split models (`gguf-split`): `<name>-00001-of-00003.gguf` and its siblings. llama.cpp loads them
 * all through the first, so Parley lists a split model once, by its first shard, with the size of
 * all its shards.
 */
const SHARD = /^(.*)-(\d+)-of-(\d+)(\.gguf)$/i;

export function shardOf(fileName: string): { index: number; count: number } | null {
  const m = SHARD.exec(fileName);
  return m ? { index: Number(m[2]), count: Number(m[3]) } : null;
}

/** A shard after the first: listed through its first shard, never by itself. */
export const isLaterShard = (fileName: string) => (shardOf(fileName)?.index ?? 1) > 1;

/** The file name without its shard suffix: `Big-Q4_K_M-00001-of-00003.gguf` → `Big-Q4_K_M.gguf`. */
export const withoutShard = (fileName: string) => fileName.replace(SHARD, '$1$4');

/**
 * The size of the model whose first file is `path` (`firstSize` bytes): the sum of its shards when
 * it is split, and which shard is missing (llama.cpp cannot load it then). Stops at the first
 * missing shard, so a name claiming thousands of shards costs one look.
 */
export async function modelSize(path: string, firstSize: number): Promise<{ size: number; missing: string | null }> {
  const m = SHARD.exec(basename(path));
  if (!m || Number(m[2]) !== 1) return { size: firstSize, missing: null };
  const [, stem = '', first = '', total = '', ext = ''] = m;
  const count = Number(total);
  let size = firstSize;
  for (let index = 2; index <= count; index++) {
    const name = `${stem}-${String(index).padStart(first.length, '0')}-of-${total}${ext}`;
    try {
      const info = await stat(join(dirname(path), name));
      if (!info.isFile()) throw new Error('not a file');
      size += info.size;
    } catch {
      return { size, missing: `This split model is incomplete: part ${index} of ${count} (${name}) is missing.` };
    }
  }
  return { size, missing: null };
}
