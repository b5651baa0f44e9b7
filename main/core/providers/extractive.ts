import type { Provider, ProviderEvent, ProviderRequest } from './types.js';
import { estimateTokens } from '../tokens.js';

export const NO_DATASET_ANSWER =
  'I am the built-in extractive model: I answer only from the passages of the datasets attached to a conversation, and none is attached here. ' +
  'Attach a dataset to this thread (or to your message), or choose a generative model.';

/** Splits text into word-sized pieces that keep their spacing, so the stream rebuilds it exactly. */
export function wordPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/**
 * The offline, deterministic built-in model. It answers from the most relevant dataset passages
 * with citations once retrieval exists; until a dataset is attached it says plainly that it has
 * nothing to draw on.
 */
export function extractiveProvider(): Provider {
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const answer = NO_DATASET_ANSWER;
      for (const piece of wordPieces(answer)) {
        if (request.signal.aborted) return;
        yield { type: 'delta', text: piece };
      }
      const prompt = request.messages.map((m) => m.content).join('\n');
      yield { type: 'usage', input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(answer) };
    },
  };
}
