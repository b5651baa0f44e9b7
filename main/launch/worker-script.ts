import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The script of a worker (a thread or a process) that lives beside the module at `moduleUrl`:
 * `<name>.js` once built (dist/main/, where the build writes each worker), else — run from source
 * under vitest or tsx — `<name>-dev.mjs`, a small script that loads `<name>.ts` through tsx.
 */
export function workerScript(moduleUrl: string, name: string): string {
  const built = fileURLToPath(new URL(`./${name}.js`, moduleUrl));
  if (existsSync(built)) return built;
  return fileURLToPath(new URL(`./${name}-dev.mjs`, moduleUrl));
}
