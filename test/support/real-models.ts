import { existsSync } from 'node:fs';
import { TEST_MODELS, cachedModelPath, type TestModel } from '../../scripts/models/test-models.js';

/**
 * The path of a real test model fetched by `npm run fetch-test-models`. A missing model is an
 * error that says how to fetch it: the real-model tier never skips.
 */
export function realModel(key: TestModel['key']): { path: string; name: string; file: string } {
  const model = TEST_MODELS.find((m) => m.key === key);
  if (!model) throw new Error(`no test model ${key}`);
  const path = cachedModelPath(model);
  if (!existsSync(path)) throw new Error(`The real test model ${model.name} is not at ${path}: run \`npm run fetch-test-models\` first.`);
  return { path, name: model.name, file: model.file };
}
