// Bundles the main process and the preload with esbuild. Main keeps node_modules external (they
// ship beside it); the preload is one CommonJS file because a sandboxed preload cannot load modules.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  // The parse worker is its own entry: parsing runs in a worker thread, found beside serve.js.
  // mcp: the stdio MCP server (`npm run mcp`, the `parley-mcp` bin); its shebang lets clients run it directly.
  entryPoints: { serve: 'main/serve.ts', electron: 'main/electron.ts', 'parse-worker': 'main/core/ingest/parse-worker.ts', mcp: 'main/mcp.ts' },
  outdir: 'dist/main',
  format: 'esm',
  packages: 'external',
  external: ['electron'],
});

await build({
  ...common,
  entryPoints: { index: 'preload/index.ts' },
  outfile: 'dist/preload/index.cjs',
  format: 'cjs',
  external: ['electron'],
});
