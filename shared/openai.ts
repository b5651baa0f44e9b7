import { z } from 'zod';
import { MaxTokens, Stop, Temperature, TopP } from './sampling.js';

/**
 * The subset of OpenAI's chat-completions request that Parley's `/v1` facade understands, so that
 * existing tools and the official SDKs work unmodified. Unknown fields are accepted and ignored.
 */
const TextPart = z.object({ type: z.literal('text'), text: z.string() });
const Content = z.union([z.string(), z.array(z.union([TextPart, z.looseObject({ type: z.string() })]))]).nullable();

export const CompletionMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: Content.optional(),
});

export const ChatCompletionRequest = z.looseObject({
  /** A Parley model id, or `auto` for dynamic routing. */
  model: z.string().min(1).max(200),
  messages: z.array(CompletionMessage).min(1).max(10_000),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_tokens: MaxTokens.nullable().optional(),
  max_completion_tokens: MaxTokens.nullable().optional(),
  temperature: Temperature.nullable().optional(),
  top_p: TopP.nullable().optional(),
  stop: Stop.nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** Text of a message, whether plain or in parts. */
export function textOf(content: z.infer<typeof Content> | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}
