import type { Provider, ProviderEvent, ProviderRequest } from '../../platform/ports/providers.js';
import { estimateTokens } from '../../platform/tokens.js';
import { hasSpacelessScript, wordsOf } from '../../../../shared/words.js';
import { questionLanguage } from './answer-language.js';
import { FRAMINGS } from './extractive-framing.js';
import { quoteSentences } from './extractive-quotes.js';

/** The answer without a dataset, to an English question (`FRAMINGS` holds the other languages'). */
export const NO_DATASET_ANSWER = FRAMINGS.en.noDataset;

/** The answer when no passage holds the question's words, to an English question. */
export const NOTHING_FOUND_ANSWER = FRAMINGS.en.nothingFound;

/**
 * Splits text into word-sized pieces that keep their spacing, so the stream rebuilds it exactly.
 * Chinese, Japanese or Thai runs have no spaces to split at: they are cut where their words
 * start, so a Chinese answer streams word by word too, not a sentence at once.
 */
export function wordPieces(text: string): string[] {
  const pieces: string[] = [];
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    if (!hasSpacelessScript(piece)) {
      pieces.push(piece);
      continue;
    }
    let from = 0;
    for (const word of wordsOf(piece)) {
      if (word.index <= from) continue;
      pieces.push(piece.slice(from, word.index));
      from = word.index;
    }
    pieces.push(piece.slice(from));
  }
  return pieces;
}

/** The question an answer is for: the last thing the user said. */
export function questionOf(messages: ProviderRequest['messages']): string {
  return messages.findLast((m) => m.role === 'user')?.content ?? '';
}

/**
 * The answer made of the datasets' own sentences: those holding the most of the question's terms,
 * whole, each with its citation marker.
 */
export function extractiveAnswer(request: Pick<ProviderRequest, 'passages' | 'has_datasets' | 'messages'>): string {
  const question = questionOf(request.messages);
  const framing = FRAMINGS[questionLanguage(question)];
  if (!request.has_datasets) return framing.noDataset;
  if (request.passages.length === 0) return framing.nothingFound;
  const quoted = quoteSentences(question, request.passages).map((q) => `> ${q.text} [${q.index}]`);
  if (quoted.length === 0) return framing.nothingFound;
  return `${framing.quotes}\n\n${quoted.join('\n\n')}`;
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
