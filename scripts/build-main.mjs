// Bundles the main process and the preload with esbuild. Main keeps node_modules external (they
// ship beside it), except served mode (below); the preload is one CommonJS file because a sandboxed preload cannot load modules.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  // The parse worker is its own entry: parsing runs in a worker thread, found beside serve.js.
  // mcp: the stdio MCP server (`npm run mcp`, the `parley-mcp` bin); its shebang lets clients run it directly.
  // background-worker: the worker thread that rebuilds vector graphs and reads term statistics off the main thread.
  entryPoints: {
    electron: 'main/electron.ts',
    'parse-worker': 'main/core/ingest/parse-worker.ts',
    'background-worker': 'main/db/repositories/chunks/background-worker.ts',
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
await build({
  ...common,
  entryPoints: { serve: 'main/serve.ts' },
  outdir: 'dist/main',
  format: 'esm',
  // What is imported dynamically (the Anthropic SDK, loaded at its first use) goes into chunks of
  // its own, compiled only when needed.
  splitting: true,
  chunkNames: 'serve-chunks/[name]-[hash]',
  external: ['electron', 'better-sqlite3', 'sqlite-vec', 'sqlite-vec-*', 'node-llama-cpp', '@hyzyla/pdfium', 'pino', 'pino-*', 'thread-stream'],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: { js: "import { createRequire as __parleyCreateRequire } from 'node:module'; const require = __parleyCreateRequire(import.meta.url);" },
});

await build({
  ...common,
  entryPoints: { index: 'preload/index.ts' },
  outfile: 'dist/preload/index.cjs',
  format: 'cjs',
  external: ['electron'],
});
