import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The script of a worker (a thread or a process) that lives beside the module at `moduleUrl`:
 * `<name>.js` once built (dist/main/, where the build writes each worker), else — run from source
 * under vitest or tsx — `<name>-dev.mjs`, a small script that loads `<name>.ts` through tsx.
 *
 * In the packaged app this is a path inside `app.asar`, on purpose: every worker is started by
 * Electron's own runtime, which reads the archive — worker threads of the main process, the
 * parse process (`fork` runs the Electron binary as Node, ELECTRON_RUN_AS_NODE) and the
 * local-models utility process. The workers import packages that stay in the archive (the
 * parser's mammoth and htmlparser2, the host's zod): a copy run from `app.asar.unpacked` would
 * look for them in `app.asar.unpacked/node_modules` and fail. So workers are not unpacked
 * (electron-builder.yml) and their path is not rewritten; test/unit/desktop/asar-layout.test.ts
 * checks both. `exists` answers for the archive where plain Node cannot read it (that test).
 */
export function workerScript(moduleUrl: string, name: string, exists: (file: string) => boolean = existsSync): string {
  const built = fileURLToPath(new URL(`./${name}.js`, moduleUrl));
  if (exists(built)) return built;
  return fileURLToPath(new URL(`./${name}-dev.mjs`, moduleUrl));
}
