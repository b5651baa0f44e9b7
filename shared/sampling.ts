import { z } from 'zod';

/**
 * How an answer is sampled, as a request may set it (`POST /chat`, `/v1/chat/completions`): ranges
 * are OpenAI's, so a value one API takes the other takes too. Unset, the model's own defaults apply
 * (a local GGUF's recommended values, else a temperature of 0.7; a remote model's server defaults).
 */
export const Temperature = z.number().min(0, 'must be between 0 and 2').max(2, 'must be between 0 and 2');
export const TopP = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
export const MaxTokens = z.number().int('must be a whole number of tokens').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000');
const StopText = z.string().min(1, 'a stop sequence must not be empty').max(500, 'a stop sequence may be at most 500 characters');
/** One stop sequence or several: the answer ends before the first of them the model writes (it is not included). */
export const Stop = z.union([StopText, z.array(StopText).max(16, 'at most 16 stop sequences')]);

/** The sampling fields of `POST /chat`. */
export const SamplingFields = {
  /** 0 picks the likeliest token every time; higher is more varied. */
  temperature: Temperature.optional(),
  /** Samples only from the likeliest tokens whose probabilities add up to this. */
  top_p: TopP.optional(),
  /** The answer stops after this many tokens (`finish_reason: "length"` on `/v1`). */
  max_tokens: MaxTokens.optional(),
  stop: Stop.optional(),
};

/** `stop` as a list, whichever form it came in. */
export function stopList(stop: string | string[] | null | undefined): string[] | undefined {
  if (stop == null) return undefined;
  const list = typeof stop === 'string' ? [stop] : stop;
  return list.length > 0 ? list : undefined;
}
