/**
 * A file attached to a chat keeps its name unless the thread's files hold one by that name already
 * (keys are unique within a knowledge base, and the service refuses a second): it then gets ` (2)`
 * before its extension, as the Datasets page names a second file of one upload (`uniqueKeys`).
 */
export function freeName(name: string, taken: ReadonlySet<string>): string {
  const base = name.trim() || 'file';
  let key = base;
  for (let n = 2; taken.has(key); n++) key = base.replace(/(\.[^.]*)?$/, (ext) => ` (${n})${ext}`);
  return key;
}

/** `files` under names free in the thread's files and among themselves; a file renamed is a copy under the new name. */
export function withFreeNames(files: readonly File[], taken: ReadonlySet<string>): File[] {
  const used = new Set(taken);
  return files.map((file) => {
    const key = freeName(file.name, used);
    used.add(key);
    return key === file.name ? file : new File([file], key, { type: file.type, lastModified: file.lastModified });
  });
}
