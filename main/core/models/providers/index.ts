import type { Model } from '../../../../shared/operations/models.js';
import type { LocalModels } from '../local/registry.js';
import { extractiveProvider } from './extractive.js';
import { llamaCppProvider } from './llama-cpp.js';
import { lazyProvider } from './lazy.js';
import { openAiCompatibleProvider } from './openai-compatible.js';
import type { Provider } from './types.js';

export type ProviderName = Model['provider'];
export type Providers = Record<ProviderName, Provider>;

export function createProviders(local: LocalModels): Providers {
  return {
    extractive: extractiveProvider(),
    openai_compatible: openAiCompatibleProvider(),
    anthropic: lazyProvider(async () => (await import('./anthropic.js')).anthropicProvider()),
    llama_cpp: llamaCppProvider(local),
  };
}
