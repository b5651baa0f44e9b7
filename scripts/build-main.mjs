// Bundles the main process and the preload with esbuild. Main keeps node_modules external (they
// ship beside it), except served mode (below); the preload is one CommonJS file because a sandboxed preload cannot load modules.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  // The parse worker is its own entry: parsing runs in a worker thread, found beside serve.js.
  // mcp: the stdio MCP server (`npm run mcp`, the `parley-mcp` bin); its shebang lets clients run it directly.
  // background-worker: the worker thread that rebuilds vector graphs and reads term statistics off the main thread.
  // keyword-worker: the thread that shares each keyword search, query by query, with the main thread.
  entryPoints: {
    electron: 'main/electron.ts',
    'parse-worker': 'main/core/knowledge/ingest/parse-worker.ts',
    'background-worker': 'main/search/vectors/background-worker.ts',
    'keyword-worker': 'main/search/keyword/keyword-worker.ts',
    // pg-worker: the thread that holds the PostgreSQL clients of the synchronous connections (team server).
    'pg-worker': 'main/db/postgres/pg-worker.ts',
    // host-process: the local models' own process (node-llama-cpp), so a native crash does not end the app.
    'host-process': 'main/core/models/local/host/host-process.ts',
    mcp: 'main/mcp.ts',
  },
  outdir: 'dist/main',
  format: 'esm',
  packages: 'external',
  external: ['electron'],
});

// Served mode bundles its pure-JavaScript dependencies too: Node's ES module loader resolving,
// reading and compiling some 250 files (zod, the SDKs, Fastify, ajv…) one by one was most of its
// start-up (≈1.0 s of CPU before the first line ran; ≈0.5 s bundled, test/bench/startup.ts).
// Native and WebAssembly packages, and those that start workers by file path, stay external.
// The bundle is CommonJS (serve-main.cjs) so that the small launcher (serve.js, serve-entry.ts)
// can run it through vm.Script with a V8 code cache: Node 20 caches no compiled ES module, and
// compiling ~4 MB was ~200 ms of every start. Whitespace and syntax are minified (names are kept,
// so stack traces still name functions; the source map has the rest): less to read, hash and
// lazily compile. Dynamic import()s of bundled modules (the Anthropic SDK) stay lazy: esbuild
// wraps them so they are evaluated at first use, and the cache holds no code for them until then.
await build({
  ...common,
  entryPoints: { 'serve-main': 'main/serve.ts' },
  outdir: 'dist/main',
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  minifyWhitespace: true,
  minifySyntax: true,
  external: ['electron', 'synckit', 'pg', 'better-sqlite3', 'sqlite-vec', 'sqlite-vec-*', 'node-llama-cpp', '@hyzyla/pdfium', 'pino', 'pino-*', 'thread-stream'],
  // import.meta has no CommonJS equivalent; the modules use only its url (to find files beside them).
  define: { 'import.meta.url': '__parleyImportMetaUrl' },
  banner: { js: "var __parleyImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await build({
  ...common,
  entryPoints: { serve: 'main/serve-entry.ts' },
  outdir: 'dist/main',
  format: 'esm',
});
// The last build's code cache (keyed by its source, so it would only be refused) and the chunks
// of the ES module build that came before this one.
await rm('dist/main/serve-main.cjs.v8cache', { force: true });
await rm('dist/main/serve-chunks', { recursive: true, force: true });

await build({
  ...common,
  entryPoints: { index: 'preload/index.ts' },
  outfile: 'dist/preload/index.cjs',
  format: 'cjs',
  external: ['electron'],
});
