import type { Provider, ProviderEvent, ProviderRequest } from '../../platform/ports/providers.js';
import { estimateTokens } from '../../platform/tokens.js';
import { quoteSentences } from './extractive-quotes.js';

export const NO_DATASET_ANSWER =
  'I am the built-in extractive model: I answer only from the passages of the datasets attached to a conversation, and none is attached here. ' +
  'Attach a dataset to this thread (or to your message), or choose a generative model.';

/** Splits text into word-sized pieces that keep their spacing, so the stream rebuilds it exactly. */
export function wordPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export const NOTHING_FOUND_ANSWER =
  'I found nothing in the attached datasets that answers this. Try other words, attach another dataset, or choose a generative model.';

/** The question an answer is for: the last thing the user said. */
export function questionOf(messages: ProviderRequest['messages']): string {
  return messages.findLast((m) => m.role === 'user')?.content ?? '';
}

/**
 * The answer made of the datasets' own sentences: those holding the most of the question's terms,
 * whole, each with its citation marker.
 */
export function extractiveAnswer(request: Pick<ProviderRequest, 'passages' | 'has_datasets' | 'messages'>): string {
  if (!request.has_datasets) return NO_DATASET_ANSWER;
  if (request.passages.length === 0) return NOTHING_FOUND_ANSWER;
  const quoted = quoteSentences(questionOf(request.messages), request.passages).map((q) => `> ${q.text} [${q.index}]`);
  if (quoted.length === 0) return NOTHING_FOUND_ANSWER;
  return `From your datasets:\n\n${quoted.join('\n\n')}`;
}

/**
 * The offline, deterministic built-in model: it answers with the most relevant passages of the
 * attached datasets, cited; without a dataset it says plainly that it has nothing to draw on.
 */
export function extractiveProvider(): Provider {
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const answer = extractiveAnswer(request);
      for (const piece of wordPieces(answer)) {
        if (request.signal.aborted) return;
        yield { type: 'delta', text: piece };
      }
      const prompt = request.messages.map((m) => m.content).join('\n');
      yield { type: 'usage', input_tokens: estimateTokens(prompt), output_tokens: estimateTokens(answer) };
    },
  };
}
