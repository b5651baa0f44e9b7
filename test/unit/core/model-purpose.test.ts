import { describe, expect, it } from 'vitest';
import type { Model } from '../../../shared/operations/models.js';
import type { Context } from '../../../main/core/platform/context.js';
import { modelPurpose } from '../../../main/core/models/catalog/purpose.js';

/** Only what `modelPurpose` reads: the configured embedding model. */
const ctx = (embeddingModel = '') => ({ config: () => ({ retrieval: { embedding_model: embeddingModel } }) }) as unknown as Context;

const remote = (model: string, extra: Partial<Model> = {}): Model =>
  ({ id: 'mdl_r', name: model, kind: 'third_party', provider: 'openai_compatible', model, endpoint_url: null, base_model: null, status: 'available', has_api_key: false, created_at: '2026-01-01T00:00:00.000Z', ...extra }) as Model;

describe('modelPurpose: which models /v1/embeddings takes and /v1/models marks "embeddings"', () => {
  it('names remote embedding models by the names servers give them, and never a chat model', () => {
    for (const name of ['text-embedding-3-small', 'nomic-embed-text', 'mxbai-embed-large', 'all-minilm', 'bge-m3', 'multilingual-e5-large', 'gte-small', 'snowflake-arctic-embed:33m']) {
      expect(modelPurpose(ctx(), remote(name)), name).toBe('embedding');
    }
    for (const name of ['gpt-4o-mini', 'llama3.1:8b', 'qwen2.5-7b-instruct', 'phi3.5', 'gemma2:9b', 'mistral-nemo', 'deepseek-r1:14b']) {
      expect(modelPurpose(ctx(), remote(name)), name).toBe('chat');
    }
  });

  it('the configured [retrieval] embedding_model is one whatever its name; Anthropic and the built-in model never are', () => {
    expect(modelPurpose(ctx('mdl_r'), remote('my-vectors'))).toBe('embedding');
    expect(modelPurpose(ctx(), remote('my-vectors'))).toBe('chat');
    expect(modelPurpose(ctx(), remote('voyage-embed', { provider: 'anthropic' }))).toBe('chat');
    expect(modelPurpose(ctx(), remote('extractive', { provider: 'extractive', id: 'mdl_extractive' }))).toBe('chat');
  });

  it('a local GGUF says it in its header (purpose), not its name', () => {
    const local = (purpose: 'chat' | 'embedding') => remote('embed-like-name.gguf', { provider: 'llama_cpp', local: { purpose } as Model['local'] });
    expect(modelPurpose(ctx(), local('chat'))).toBe('chat');
    expect(modelPurpose(ctx(), local('embedding'))).toBe('embedding');
  });
});
