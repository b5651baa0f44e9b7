import type { Model } from '../../../shared/operations/models.js';
import { anthropicProvider } from './anthropic.js';
import { extractiveProvider } from './extractive.js';
import { openAiCompatibleProvider } from './openai-compatible.js';
import type { Provider } from './types.js';
import { ProviderError } from './types.js';

export type ProviderName = Model['provider'];
export type Providers = Record<ProviderName, Provider>;

/** llama.cpp models run through node-llama-cpp, an optional dependency not installed yet. */
const llamaCppUnavailable: Provider = {
  // eslint-disable-next-line require-yield -- it fails before producing anything, by design
  async *stream() {
    throw new ProviderError('unavailable', 'Local GGUF models (llama_cpp) are not available in this build: node-llama-cpp is not installed.');
  },
};

export function createProviders(): Providers {
  return {
    extractive: extractiveProvider(),
    openai_compatible: openAiCompatibleProvider(),
    anthropic: anthropicProvider(),
    llama_cpp: llamaCppUnavailable,
  };
}
