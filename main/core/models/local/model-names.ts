import { basename, dirname, sep } from 'node:path';
import type { GgufHeader } from './gguf-header.js';
import { withoutShard } from './split-models.js';

/**
 * Names that tell listed models apart. Several files often carry one `general.name` (two
 * quantisations of a model, or one model downloaded by two apps), and the picker shows names only:
 * where names collide, the quantisation is added, then the folder, then a number.
 */

interface Named {
  path: string;
  name: string;
  header: GgufHeader | null;
}

/** Quantisation types as model files name them (`Q4_K_M`, `IQ3_XXS`, `Q8_0`, `F16`, `BF16`, `MXFP4`). */
const QUANT = /(?<=^|[-_.\s])(I?Q\d(?:_[A-Z0-9]+)*|TQ\d_\d|BF16|F16|F32|MXFP4)(?=$|[-_.\s])/gi;

/** A readable name from the file: `Qwen2.5-0.5B-Instruct-Q4_K_M.gguf` → `Qwen2.5-0.5B-Instruct-Q4_K_M`; Jan's `<id>/model.gguf` → `<id>`. */
export function nameFromFile(path: string): string {
  const stem = withoutShard(basename(path)).replace(/\.gguf$/i, '');
  return /^model$/i.test(stem) ? basename(dirname(path)) : stem;
}

/** The quantisation as the file name says it (more precise than the header's file type when both exist), else as the header does. */
export function quantTag(file: Pick<Named, 'path' | 'header'>): string | null {
  const stem = withoutShard(basename(file.path)).replace(/\.gguf$/i, '');
  return [...stem.matchAll(QUANT)].at(-1)?.[1]?.toUpperCase() ?? file.header?.quantization ?? null;
}

/** The last `depth` folders of the file's path, as a suffix: `(lmstudio-community/Qwen-GGUF)`. */
function folderTag(path: string, depth: number): string {
  return dirname(path).split(sep).filter(Boolean).slice(-depth).join('/');
}

const key = (name: string) => name.trim().toLowerCase();

/** Each group of items whose names collide (case aside), in path order so suffixes are stable. */
function collisions<T extends Named>(items: T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item.name), [...(groups.get(key(item.name)) ?? []), item]);
  return [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)));
}

const FOLDER_DEPTH = 3;

/** Gives colliding names a distinguishing suffix, in place; items with unique names are left as they are. */
export function distinguishNames<T extends Named>(items: T[]): T[] {
  for (const group of collisions(items)) {
    const tags = group.map(quantTag);
    // A tag all members share tells nothing apart.
    if (new Set(tags).size === 1) continue;
    group.forEach((item, i) => {
      const tag = tags[i];
      if (tag && !item.name.toLowerCase().includes(tag.toLowerCase())) item.name = `${item.name} ${tag}`;
    });
  }
  for (const group of collisions(items)) {
    // The fewest trailing folders that tell the group apart (not the whole path: members see names,
    // not paths); files side by side in one folder differ by their file names.
    const suffixes = [1, 2, FOLDER_DEPTH].map((depth) => group.map((item) => folderTag(item.path, depth)));
    suffixes.push(group.map((item) => withoutShard(basename(item.path)).replace(/\.gguf$/i, '')));
    const telling = suffixes.find((s) => new Set(s).size === group.length);
    if (telling) group.forEach((item, i) => (item.name = `${item.name} (${telling[i] ?? ''})`));
  }
  // Whatever still collides (a name that happened to equal another's suffixed one) is numbered.
  for (let round = 0; round < 3; round++) {
    const groups = collisions(items);
    if (!groups.length) break;
    for (const group of groups) group.forEach((item, i) => i > 0 && (item.name = `${item.name} ${i + 1}`));
  }
  return items;
}
