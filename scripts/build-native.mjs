// Builds Parley's SQLite extension (native/parley-fts.c: bm25 given the terms' document
// frequencies, see there) into dist/native/, with the C compiler that `npm ci` already needs
// (hnswlib-node builds from source), against the SQLite that better-sqlite3 ships. Where no
// compiler works, it says so and the build goes on: keyword search then lets FTS5 count the
// document frequencies (the same scores, slower at a million chunks).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const LIBRARY = { darwin: 'parley_fts.dylib', win32: 'parley_fts.dll' }[process.platform] ?? 'parley_fts.so';
const out = join('dist', 'native', LIBRARY);
const sqliteDir = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');

// FTS5's public header lives inside SQLite's amalgamation; taken from the very SQLite that loads the extension.
const amalgamation = readFileSync(join(sqliteDir, 'sqlite3.c'), 'utf8');
const header = /\/\*+ Begin file fts5\.h \*+\/\n([\s\S]*?)\/\*+ End of fts5\.h \*+\//.exec(amalgamation)?.[1];
if (!header) throw new Error(`fts5.h not found in ${join(sqliteDir, 'sqlite3.c')}`);
const work = mkdtempSync(join(tmpdir(), 'parley-native-'));
try {
  writeFileSync(join(work, 'fts5.h'), header);
  mkdirSync(dirname(out), { recursive: true });
  const shared = process.platform === 'darwin' ? ['-dynamiclib'] : ['-shared', '-fPIC'];
  const compiler = process.env.CC || 'cc';
  try {
    execFileSync(compiler, ['-O2', '-Wall', ...shared, '-I', work, '-I', sqliteDir, '-o', out, join('native', 'parley-fts.c'), '-lm'], { stdio: 'inherit' });
  } catch (error) {
    rmSync(out, { force: true });
    console.warn(`[build] ${out} not built (${error instanceof Error ? error.message : String(error)}): keyword search will let FTS5 count document frequencies`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
