import { describe, expect, it } from 'vitest';
import { embeddingPrefixes } from '../../../main/core/knowledge/retrieval/embedding-prefixes.js';
import { withPrefixes } from '../../../main/core/knowledge/retrieval/embedder.js';
import { retrievalEnv } from '../../../main/core/knowledge/retrieval/retrieve.js';
import type { Repositories } from '../../../main/db/repositories/index.js';
import { silentLogger } from '../../../main/core/platform/logger.js';

/** The embedding function is the injection point: this one records what the model was given. */
function recordingModel(names: string[]) {
  const seen: string[] = [];
  const model = withPrefixes({ name: 'gguf:model.gguf:1', id: 'mdl_x', label: 'x', source: 'configured' }, async (texts) => {
    seen.push(...texts);
    return texts.map(() => [1, 0]);
  }, embeddingPrefixes(names));
  return { model, seen };
}

describe('embedding prefixes per model family', () => {
  it('gives an e5 model "query: " on the question and "passage: " on the chunks', async () => {
    const { model, seen } = recordingModel(['e5', 'E5 Small V2', '/models/e5-small-v2.Q8_0.gguf']);
    await model.embed(['The keeper lights the lamp at dusk.', 'Sourdough rests overnight.']);
    // The question goes through the retrieval environment every search uses.
    const env = retrievalEnv({} as Repositories, { embedding: () => model, log: silentLogger, keywords: undefined as never });
    await env.embed?.(['When is the lamp lit?']);
    expect(seen).toEqual(['passage: The keeper lights the lamp at dusk.', 'passage: Sourdough rests overnight.', 'query: When is the lamp lit?']);
    // Vectors made with these prefixes are not those of the same file without them.
    expect(model.name).toBe('gguf:model.gguf:1+e5');
  });

  it('knows nomic-embed-text, multilingual e5 and bge by their GGUF or file names, and MiniLM needs none', () => {
    expect(embeddingPrefixes(['Nomic Embed Text V1.5'])).toMatchObject({ query: 'search_query: ', passage: 'search_document: ' });
    expect(embeddingPrefixes([null, '/x/nomic-embed-text-v1.5.Q4_K_M.gguf'])).toMatchObject({ family: 'nomic' });
    expect(embeddingPrefixes(['multilingual-e5-small'])).toMatchObject({ query: 'query: ', passage: 'passage: ' });
    expect(embeddingPrefixes(['bge-small-en-v1.5-q8_0.gguf'])).toEqual({ family: 'bge', query: 'Represent this sentence for searching relevant passages: ', passage: '' });
    expect(embeddingPrefixes(['all-MiniLM-L6-v2', 'all-MiniLM-L6-v2.F16.gguf'])).toBeUndefined();
    // A folder's name says nothing about the file in it; e5-mistral is another kind of model.
    expect(embeddingPrefixes(['/models/e5-stuff/all-MiniLM-L6-v2.gguf'])).toBeUndefined();
    expect(embeddingPrefixes(['e5-mistral-7b-instruct'])).toBeUndefined();
  });

  it('leaves a model without a known family as it is', async () => {
    const { model, seen } = recordingModel(['all-MiniLM-L6-v2']);
    await model.embed(['passage text']);
    await model.embedQuery(['question']);
    expect(seen).toEqual(['passage text', 'question']);
    expect(model.name).toBe('gguf:model.gguf:1');
  });
});
