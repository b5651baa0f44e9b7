import { join } from 'node:path';

/**
 * Where a file the packaged app needs really is, for code that opens it without Electron's help.
 *
 * In the packaged app everything sits in `<resources>/app.asar`; the files matched by
 * electron-builder.yml's `asarUnpack` are copied to `<resources>/app.asar.unpacked` instead, at the
 * same relative path. Electron's patched `fs`, `require` and `process.dlopen` follow an archive
 * path to its unpacked copy by themselves, so a `.node` addon or a worker script is addressed by
 * its archive path. Native code that opens a file with its own C calls (SQLite's
 * `sqlite3_load_extension`) reads no archive: it must be handed the unpacked path, or the load
 * fails and the feature is silently off. Outside a packaged app this returns `file` unchanged.
 */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** The models shipped with the packaged app: electron-builder.yml's `extraResources` puts them in `<resources>/models`, outside the archive (llama.cpp reads real files). */
export function bundledModelsDir(resourcesPath: string): string {
  return join(resourcesPath, 'models');
}
