/**
 * Token counts where a provider reports none, and for fitting a conversation into a model's
 * context. An estimate — about four characters a token for English text, one a character for
 * Chinese, Japanese, Korean and Thai — not a tokenizer: it only has to be cheap, deterministic
 * and on the safe side of what models count.
 */
export const CHARS_PER_TOKEN = 4;

/** What each chat message costs besides its text (role and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Room kept for the answer: routing and context trimming both leave this much free. */
export const REPLY_RESERVE_TOKENS = 1024;

/**
 * A character that costs about a token of its own: Han, kana, Hangul, Thai, their punctuation and
 * full-width forms (models' vocabularies hold few words of these scripts; four of them are not one
 * token as four English letters are). Han beyond the BMP counts by its first code unit.
 */
function isDense(c: number): boolean {
  if (c < 0x0e00) return false;
  return (
    c <= 0x0e7f || (c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xd840 && c <= 0xd87f) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef)
  );
}

export function estimateTokens(text: string): number {
  let dense = 0;
  for (let i = 0; i < text.length; i++) if (isDense(text.charCodeAt(i))) dense++;
  return Math.ceil((text.length - dense) / CHARS_PER_TOKEN) + dense;
}

/**
 * The length of the longest start of `text` that costs no more tokens than `chars` characters of
 * English: `chars` itself for English text, about a quarter of it for Chinese.
 */
export function prefixCosting(text: string, chars: number): number {
  let cost = 0;
  for (let i = 0; i < text.length; i++) {
    cost += isDense(text.charCodeAt(i)) ? CHARS_PER_TOKEN : 1;
    if (cost > chars) return i;
  }
  return text.length;
}

/** A message as part of a prompt: its text and its overhead. */
export function messageTokens(text: string): number {
  return estimateTokens(text) + MESSAGE_OVERHEAD_TOKENS;
}
