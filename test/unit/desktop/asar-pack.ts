/**
 * Packs files into an asar archive as `npm run dist` (electron-builder) would: its `files` and
 * `asarUnpack` globs from electron-builder.yml, matched the way app-builder-lib's FileMatcher
 * does, and the same `@electron/asar` call (createPackageFromStreams) with each entry's `unpacked`
 * flag. electron-builder's "smart unpack" (which also unpacks a package holding a .so or .node) is
 * left out on purpose: the unpack list in electron-builder.yml must name every such file itself,
 * so that it stays the one place to read what is unpacked.
 */
import { createPackageFromStreams, type AsarStreamType } from '@electron/asar';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { parse } from 'yaml';

export interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string; filter?: string[] }[];
}

export function readBuilderConfig(root: string): BuilderConfig {
  return parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

/**
 * electron-builder's glob semantics: minimatch with dot files; a pattern with neither a dot nor a
 * glob character is a folder and covers everything under it; `!` excludes.
 */
export function globMatcher(patterns: readonly string[]): (relativePath: string) => boolean {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const body = negated ? pattern.slice(1) : pattern;
    const list = negated ? exclude : include;
    list.push(body);
    if (!body.includes('.') && !picomatch.scan(body).isGlob) list.push(`${body}/**/*`);
  }
  const included = picomatch(include, { dot: true });
  const excluded = exclude.length > 0 ? picomatch(exclude, { dot: true }) : () => false;
  return (path) => included(path) && !excluded(path);
}

const posix = (path: string): string => path.split(sep).join('/');

/**
 * Writes `<resources>/app.asar` (and `app.asar.unpacked`) holding `files` (absolute paths under
 * `root`, at their path relative to it), unpacking those that `asarUnpack` matches. Returns the
 * files `files:` would have left out of the app.
 */
export async function packApp(root: string, resources: string, files: readonly string[], config: BuilderConfig): Promise<string[]> {
  const inApp = globMatcher(config.files);
  const unpack = globMatcher(config.asarUnpack);
  const streams: AsarStreamType[] = [];
  const dirs = new Set<string>();
  const leftOut: string[] = [];
  for (const file of [...new Set(files)].sort()) {
    const path = posix(relative(root, file));
    if (!inApp(path)) {
      leftOut.push(path);
      continue;
    }
    // Parent folders first, as electron-builder's AsarPackager orders them.
    const parents: string[] = [];
    for (let dir = dirname(path); dir !== '.'; dir = dirname(dir)) parents.unshift(dir);
    for (const dir of parents) {
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      streams.push({ type: 'directory', path: dir, unpacked: false });
    }
    const { mode, size } = statSync(file);
    streams.push({ type: 'file', path, unpacked: unpack(path), stat: { mode, size }, streamGenerator: () => createReadStream(file) });
  }
  await createPackageFromStreams(join(resources, 'app.asar'), streams);
  return leftOut;
}
