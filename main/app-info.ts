import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: where package.json is, whether running from source (main/) or built (dist/main/). */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('package.json not found above the main process files');
}

export const APP_ROOT = findRoot();

export const APP_VERSION: string = (JSON.parse(readFileSync(join(APP_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** The built renderer (`npm run build`), or undefined when it has not been built. */
export const RENDERER_DIR: string | undefined = [join(APP_ROOT, 'dist', 'renderer')].find((dir) => existsSync(join(dir, 'index.html')));
