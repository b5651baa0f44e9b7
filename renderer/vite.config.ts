import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * One build serves both hosts: Electron loads it from a file/app:// URL and served mode from `/`,
 * so every asset URL is relative (`base: './'`) and routing lives in the hash.
 *
 * `npx vite --config renderer/vite.config.ts` runs it against a served-mode server on
 * PARLEY_DEV_API (default http://127.0.0.1:4317) through the proxy below.
 */
export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2023',
    sourcemap: true,
    // The CSP allows no data: fonts: KaTeX's smallest fonts are files too, not inlined into its CSS.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
    rolldownOptions: {
      output: {
        /*
         * Pages, the Markdown renderer and the highlighter are split by their dynamic imports. Of
         * what every page needs, React and the contract's schemas (zod) change far less often than
         * the app: kept in chunks of their own, they stay cached across releases.
         */
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': { target: process.env.PARLEY_DEV_API ?? 'http://127.0.0.1:4317', changeOrigin: true } },
  },
});
