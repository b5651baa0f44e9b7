/**
 * The packaged app's layout: the app packed into `<resources>/app.asar` as electron-builder would
 * (electron-builder.yml's `files` and `asarUnpack`, test/unit/desktop/asar-pack.ts), then every
 * file the app resolves under `process.resourcesPath` looked up there through the app's own
 * resolvers, given a fake resources folder. Native code that reads no archive (SQLite's extensions,
 * the dynamic linker under a .node addon) must find a real, unpacked file; the workers must be
 * built scripts Electron finds in the archive. Electron itself cannot run here (docs/packaging.md).
 */
import { statFile } from '@electron/asar';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingExtensionFile, vectorExtensionFile } from '../../../main/db/connection.js';
import { bundledModelsDir, unpackedPath } from '../../../main/launch/packaged-paths.js';
import { workerScript } from '../../../main/launch/worker-script.js';
import { packApp, readBuilderConfig } from './asar-pack.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);
const WORKERS = ['parse-worker', 'background-worker', 'keyword-worker', 'host-process'];
/** The bundle every resolver runs in: main/ is bundled into dist/main/electron.js. */
const ENTRY = join('dist', 'main', 'electron.js');

const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));
const filesUnder = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));

/** node-llama-cpp's CPU build for this machine, as node-llama-cpp names its platform packages (compileLLamaCpp.js). */
const LLAMA_PACKAGE = `@node-llama-cpp/${
  process.platform === 'darwin' ? (process.arch === 'arm64' ? 'mac-arm64-metal' : 'mac-x64') : process.platform === 'win32' ? `win-${process.arch}` : `linux-${process.arch === 'arm' ? 'armv7l' : process.arch}`
}`;

/** Its prebuilt binaries, found as node-llama-cpp finds them (the package's getBinsDir); none where the optional package is not installed. */
async function llamaBinaries(): Promise<string[]> {
  let binaries: { getBinsDir(): { binsDir: string } };
  try {
    binaries = (await import(LLAMA_PACKAGE)) as typeof binaries;
  } catch {
    return [];
  }
  return filesUnder(binaries.getBinsDir().binsDir);
}

/** Addons loaded through Electron's `process.dlopen`, which follows an archive path to the unpacked copy, and the libraries they link (read by the dynamic linker, beside them). */
const addons: string[] = [
  join(packageDir('better-sqlite3'), 'build', 'Release', 'better_sqlite3.node'),
  join(packageDir('hnswlib-node'), 'build', 'Release', 'addon.node'),
  ...(await llamaBinaries()),
];

describe('the packaged app (app.asar as electron-builder packs it)', () => {
  const config = readBuilderConfig(ROOT);
  let resources: string;
  let archive: string;
  let leftOut: string[];
  /** Where a project file lands in the packaged app: its archive path, as Node's resolution there would give it. */
  const packaged = (file: string): string => join(archive, relative(ROOT, file));
  /** What Electron's asar-aware fs sees: a file in the archive, or its unpacked copy where the archive says so. */
  const readableByElectron = (file: string): boolean => {
    const inside = relative(archive, file);
    try {
      const entry = statFile(archive, inside);
      return !('unpacked' in entry && entry.unpacked) || existsSync(join(`${archive}.unpacked`, inside));
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    // The suite builds first; a run of this file alone builds what is missing.
    if (!existsSync(join(ROOT, ENTRY))) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
    resources = mkdtempSync(join(tmpdir(), 'parley-resources-'));
    archive = join(resources, 'app.asar');
    const files = [
      join(ROOT, 'package.json'),
      join(ROOT, ENTRY),
      ...WORKERS.map((name) => join(ROOT, 'dist', 'main', `${name}.js`)),
      rankingExtensionFile(pathToFileURL(join(ROOT, ENTRY)).href),
      sqliteVec.getLoadablePath(),
      ...addons,
    ];
    for (const file of files) expect(existsSync(file), `${file} (npm ci && npm run build make it)`).toBe(true);
    leftOut = await packApp(ROOT, resources, files, config);
  });
  afterAll(() => rmSync(resources, { recursive: true, force: true }));

  it('holds every file the app needs (`files` leaves none out)', () => {
    expect(leftOut).toEqual([]);
  });

  it("hands SQLite unpacked files for sqlite-vec and Parley's ranking extension", () => {
    const vector = vectorExtensionFile(packaged(sqliteVec.getLoadablePath()));
    const ranking = rankingExtensionFile(pathToFileURL(join(archive, 'dist', 'main', 'electron.js')).href);
    for (const file of [vector, ranking]) {
      expect(file.startsWith(`${archive}.unpacked`), file).toBe(true);
      expect(existsSync(file), `${relative(resources, file)} is unpacked`).toBe(true);
    }
  });

  it('unpacks every native addon and the libraries beside it', () => {
    const missing = addons
      .map((file) => unpackedPath(packaged(file)))
      .filter((file) => !existsSync(file))
      .map((file) => relative(resources, file));
    expect(missing).toEqual([]);
  });

  it('finds each built worker in the archive, at its archive path (its imports resolve against the packages there)', () => {
    const moduleUrl = pathToFileURL(join(archive, 'dist', 'main', 'electron.js')).href;
    for (const name of WORKERS) {
      const script = workerScript(moduleUrl, name, readableByElectron);
      expect(script).toBe(join(archive, 'dist', 'main', `${name}.js`));
    }
  });

  it('looks for the bundled models where extraResources puts them, outside the archive', () => {
    const models = config.extraResources.find((entry) => entry.filter?.includes('*.gguf'));
    expect(models).toBeDefined();
    expect(bundledModelsDir(resources)).toBe(join(resources, models!.to));
  });
});
