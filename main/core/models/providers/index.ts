import type { LocalModels } from '../local/registry.js';
import { extractiveProvider } from './extractive.js';
import { llamaCppProvider } from './llama-cpp.js';
import { lazyProvider } from './lazy.js';
import { openAiCompatibleProvider } from './openai-compatible.js';
import type { Providers } from '../../platform/ports/providers.js';

export function createProviders(local: LocalModels): Providers {
  return {
    extractive: extractiveProvider(),
    openai_compatible: openAiCompatibleProvider(),
    anthropic: lazyProvider(async () => (await import('./anthropic.js')).anthropicProvider()),
    llama_cpp: llamaCppProvider(local),
  };
}
