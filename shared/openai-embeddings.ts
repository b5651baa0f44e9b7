import { z } from 'zod';

/** OpenAI's own ceiling on inputs per request; a larger batch is a client bug, refused before any model runs. */
export const MAX_EMBEDDING_INPUTS = 2048;
/** Characters per input: far beyond any embedding model's context (inputs are cut to it), short of a body-sized string. */
export const MAX_EMBEDDING_INPUT_CHARS = 200_000;

const TOKEN_ARRAYS = 'token arrays are not supported: send the text (a string or an array of strings)';

const Text = z.string().min(1, 'must not be empty (OpenAI refuses empty inputs too)').max(MAX_EMBEDDING_INPUT_CHARS);

/** `input` as sent (a string or an array of them) → the texts, each refusal saying what is wrong and where. */
const Input = z.unknown().transform((value, ctx): string[] => {
  const texts = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(texts)) {
    ctx.addIssue({ code: 'custom', message: 'must be a string or an array of strings' });
    return z.NEVER;
  }
  if (texts.length === 0) ctx.addIssue({ code: 'custom', message: 'must hold at least one text' });
  else if (texts.length > MAX_EMBEDDING_INPUTS) ctx.addIssue({ code: 'custom', message: `at most ${MAX_EMBEDDING_INPUTS} texts per request (${texts.length} sent); send several requests` });
  else if (texts.every((t) => typeof t === 'number' || Array.isArray(t))) ctx.addIssue({ code: 'custom', message: TOKEN_ARRAYS });
  else {
    texts.forEach((t: unknown, i) => {
      const checked = Text.safeParse(t);
      if (!checked.success) ctx.addIssue({ code: 'custom', path: typeof value === 'string' ? [] : [i], message: typeof t === 'string' ? (checked.error.issues[0]?.message ?? 'is invalid') : 'must be a string' });
    });
  }
  return texts as string[];
});

/**
 * `POST /v1/embeddings` as OpenAI's SDKs send it. Text only: token-id arrays (which only mean
 * something for OpenAI's own tokenizer) are refused with a message saying so.
 */
export const EmbeddingsRequest = z.looseObject({
  /** A Parley model id of an embedding model (`GET /v1/models` marks them `type: "embeddings"`). */
  model: z.string().min(1).max(200),
  /** A text or up to 2,048 of them; the core gets the list. */
  input: Input,
  encoding_format: z.enum(['float', 'base64']).optional(),
  /** Forwarded to remote models; a local model gives its own size only. */
  dimensions: z.number().int().min(1).max(65_536).optional(),
  user: z.string().max(1000).optional(),
});
export type EmbeddingsRequest = z.infer<typeof EmbeddingsRequest>;
