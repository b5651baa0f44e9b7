/**
 * Token counts where a provider reports none, and for fitting a conversation into a model's
 * context. An estimate — about four characters a token for English text — not a tokenizer: it only
 * has to be cheap, deterministic and on the safe side of what models count.
 */
export const CHARS_PER_TOKEN = 4;

/** What each chat message costs besides its text (role and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Room kept for the answer: routing and context trimming both leave this much free. */
export const REPLY_RESERVE_TOKENS = 1024;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** A message as part of a prompt: its text and its overhead. */
export function messageTokens(text: string): number {
  return estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS;
}
