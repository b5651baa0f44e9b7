import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * Runs a CommonJS bundle through `vm.Script` with a V8 code cache beside it, so that later starts
 * skip compiling it: on Node 20 (no `module.enableCompileCache`) compiling served mode's bundle
 * was ~40% of its start-up CPU (test/bench/startup.ts).
 *
 * V8 checks a cache only against the source's length and its own version and flags, so a cache
 * taken from other code of the same length would be accepted and run the wrong bytecode. The
 * file therefore starts with our own key — a SHA-256 of the source, the Node version and the
 * architecture (~2 ms for the 3 MB bundle) — and a cache whose key differs is never handed to V8.
 * A missing, stale or rejected cache only costs the compile it would have saved; it is rewritten
 * once the caller says the program is warm (functions compiled by then join the cache).
 */
export interface CachedBundle {
  /** How the cache was found: `used`, `rejected` by V8, `stale` (our key differs) or `none`. */
  cache: 'used' | 'rejected' | 'stale' | 'none';
  /**
   * Writes the cache if the one found was not used; call once the program has done its start-up
   * work. Never throws: a cache that cannot be written (a read-only install) is only slower.
   */
  saveIfNeeded: () => { written: boolean; error?: string };
}

const KEY_BYTES = 32;

/** What heads the cache file: the bundle's source, Node's version and the architecture, hashed. */
export function cacheKey(source: string): Buffer {
  return createHash('sha256').update(source).update(`\0${process.version}\0${process.arch}`).digest();
}

function readCache(cacheFile: string, key: Buffer): { data: Buffer | undefined; stale: boolean } {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile);
  } catch {
    return { data: undefined, stale: false };
  }
  if (file.length <= KEY_BYTES || !file.subarray(0, KEY_BYTES).equals(key)) return { data: undefined, stale: true };
  return { data: file.subarray(KEY_BYTES), stale: false };
}

/** Compiles and runs `bundleFile` (CommonJS) in this context, with `cacheFile` as its code cache. */
export function runCachedBundle(bundleFile: string, cacheFile: string): CachedBundle {
  const source = readFileSync(bundleFile, 'utf8');
  const key = cacheKey(source);
  const found = readCache(cacheFile, key);
  // The wrapper sits on a line of its own (lineOffset -1), so positions match the bundle's source map.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: bundleFile,
    lineOffset: -1,
    cachedData: found.data,
    // import() of the packages left outside the bundle (node-llama-cpp is ES modules only).
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache: CachedBundle['cache'] = found.data ? (script.cachedDataRejected ? 'rejected' : 'used') : found.stale ? 'stale' : 'none';
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;
  const module = { exports: {} };
  wrapper.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));

  let saved = cache === 'used';
  return {
    cache,
    saveIfNeeded: () => {
      if (saved) return { written: false };
      saved = true;
      // Written whole under another name and renamed: several processes starting at once each
      // write their own, and none reads half a file.
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temporary, Buffer.concat([key, script.createCachedData()]));
        renameSync(temporary, cacheFile);
        return { written: true };
      } catch (error) {
        rmSync(temporary, { force: true });
        return { written: false, error: (error as Error).message };
      }
    },
  };
}
