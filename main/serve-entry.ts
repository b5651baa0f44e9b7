import { fileURLToPath } from 'node:url';
import { runCachedBundle } from './launch/code-cache.js';
import { onServedReady } from './launch/served-ready.js';
import { provideEsmImport } from './core/platform/esm-import.js';

/**
 * `node dist/main/serve.js`: runs served mode (serve.ts, bundled as CommonJS into serve-main.cjs)
 * with a V8 code cache, serve-main.cjs.v8cache beside it, written by the first start after a build.
 * Kept tiny: what this file loads is compiled without the cache.
 */
// This module's own import(), for the bundle's imports of ES-module-only packages (see esm-import.ts).
provideEsmImport((specifier) => import(specifier));
const bundle = fileURLToPath(new URL('./serve-main.cjs', import.meta.url));
const run = runCachedBundle(bundle, `${bundle}.v8cache`);
// Served mode is ready only after listening, which is asynchronous: this is in place by then.
// Saved after the ready line and the rest of that tick; the write (~2.5 MB) happens once per build.
onServedReady(() => setImmediate(() => run.saveIfNeeded()));
