import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CachedBundle } from '../../../../main/launch/code-cache.js';
import { tempDir } from '../../../support/core.js';

const CODE_CACHE = pathToFileURL(join(import.meta.dirname, '..', '..', '..', '..', 'main', 'launch', 'code-cache.ts')).href;

interface Launch {
  cache: CachedBundle['cache'];
  saved: ReturnType<CachedBundle['saveIfNeeded']> | null;
  /** What the bundle reported about itself. */
  report: { value: string; filename: string; dirname: string; sep: string; isThis: boolean };
}

/**
 * Runs the bundle in a fresh Node process, as `node dist/main/serve.js` does: within one process
 * V8 would reuse its in-memory compilation and never look at the cache file.
 */
function launch(bundle: string, cache: string, save = true): Launch {
  const script = `
    const { runCachedBundle } = await import(${JSON.stringify(CODE_CACHE)});
    const run = runCachedBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)});
    const saved = ${save} ? run.saveIfNeeded() : null;
    process.stdout.write(JSON.stringify({ cache: run.cache, saved, report: globalThis.report }));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
  if (child.status !== 0) throw new Error(`the launch failed (${child.status}): ${child.stderr}`);
  return JSON.parse(child.stdout) as Launch;
}

/** A CommonJS bundle that reports `value` and what the launcher gave it (require, __filename, this). */
function bundleSource(value: string): string {
  return `'use strict';
    function answer() { return ${JSON.stringify(value)}; }
    globalThis.report = { value: answer(), filename: __filename, dirname: __dirname, sep: require('node:path').sep, isThis: this === module.exports && exports === module.exports };`;
}

describe('runCachedBundle (served mode start-up: the V8 code cache)', () => {
  let dir: string;
  let remove: () => void;
  let bundle: string;
  let cache: string;
  beforeEach(() => {
    ({ dir, remove } = tempDir('parley-code-cache-'));
    bundle = join(dir, 'bundle.cjs');
    cache = `${bundle}.v8cache`;
  });
  afterEach(() => remove());

  it('runs the bundle as CommonJS, writes the cache when asked, and the next start uses it', () => {
    writeFileSync(bundle, bundleSource('first'));
    const unsaved = launch(bundle, cache, false);
    expect(unsaved).toEqual({ cache: 'none', saved: null, report: { value: 'first', filename: bundle, dirname: dir, sep: '/', isThis: true } });
    expect(existsSync(cache)).toBe(false);

    expect(launch(bundle, cache)).toMatchObject({ cache: 'none', saved: { written: true } });
    const written = readFileSync(cache);
    expect(launch(bundle, cache)).toMatchObject({ cache: 'used', saved: { written: false }, report: { value: 'first' } });
    expect(readFileSync(cache).equals(written)).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['bundle.cjs', 'bundle.cjs.v8cache']);
  });

  it('never runs a cache taken from other code of the same length (V8 alone would accept it)', () => {
    writeFileSync(bundle, bundleSource('AAAA'));
    expect(launch(bundle, cache).saved).toEqual({ written: true });
    const changed = bundleSource('BBBB');
    expect(changed.length).toBe(readFileSync(bundle, 'utf8').length);
    writeFileSync(bundle, changed);

    expect(launch(bundle, cache)).toMatchObject({ cache: 'stale', saved: { written: true }, report: { value: 'BBBB' } });
    expect(launch(bundle, cache)).toMatchObject({ cache: 'used', report: { value: 'BBBB' } });
  });

  it('compiles afresh over a damaged cache, and replaces it', () => {
    writeFileSync(bundle, bundleSource('intact'));
    launch(bundle, cache);
    const file = readFileSync(cache);
    // Our key (the first 32 bytes) still matches; V8's own data behind it is garbage.
    file.fill(7, 32);
    writeFileSync(cache, file);

    expect(launch(bundle, cache)).toMatchObject({ cache: 'rejected', saved: { written: true }, report: { value: 'intact' } });
    expect(launch(bundle, cache)).toMatchObject({ cache: 'used', report: { value: 'intact' } });
  });

  it('still runs where the cache cannot be written (a read-only install), leaving nothing behind', () => {
    writeFileSync(bundle, bundleSource('unwritable'));
    // A directory that does not exist fails the write for every user (root ignores permissions).
    const run = launch(bundle, join(dir, 'missing', 'bundle.cjs.v8cache'));
    expect(run.report.value).toBe('unwritable');
    expect(run.saved?.written).toBe(false);
    expect(run.saved?.error).toMatch(/ENOENT/);
    expect(readdirSync(dir)).toEqual(['bundle.cjs']);
  });
});
