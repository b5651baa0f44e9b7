import { z } from 'zod';
import { MaxTokens, Stop, Temperature, TopP } from './sampling.js';
import { ParleyCompletionOptions } from './openai-parley.js';

/**
 * The subset of OpenAI's chat-completions request that Parley's `/v1` facade understands, so that
 * existing tools and the official SDKs work unmodified. Unknown fields are accepted and ignored.
 */
const TextPart = z.object({ type: z.literal('text'), text: z.string() });
/** An image in a user message: an http(s) URL or a `data:image/…;base64,…` URL. */
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1).max(20_000_000), detail: z.string().optional() }),
});
const Content = z.union([z.string(), z.array(z.union([TextPart, ImagePart, z.looseObject({ type: z.string() })]))]).nullable();

const ToolCallItem = z.looseObject({
  id: z.string().min(1).max(200),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string().min(1).max(200), arguments: z.string().max(1_000_000) }),
});

export const CompletionMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: Content.optional(),
  /** An assistant turn's calls, sent back in the history of a tool loop. */
  tool_calls: z.array(ToolCallItem).max(128).nullable().optional(),
  /** A `tool` message answers this call. */
  tool_call_id: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
});

const ToolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name is 1 to 64 letters, digits, _ or -');
export const FunctionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: ToolName,
    description: z.string().max(10_000).optional(),
    /** JSON Schema of the arguments; absent: no arguments. */
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullable().optional(),
  }),
});

export const ToolChoice = z.union([z.enum(['auto', 'none', 'required']), z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: ToolName }) })]);

export const ResponseFormat = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string().min(1).max(64),
      description: z.string().max(10_000).optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormat>;

const Penalty = z.number().min(-2, 'must be between -2 and 2').max(2, 'must be between -2 and 2');

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
  /** One answer per request: several are several requests. */
  n: z.number().int('must be a whole number').min(1, 'must be 1').max(1, 'only n = 1 is supported: send the request again for another answer').nullable().optional(),
  tools: z.array(FunctionTool).max(128).nullable().optional(),
  tool_choice: ToolChoice.nullable().optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  response_format: ResponseFormat.nullable().optional(),
  seed: z.number().int('must be a whole number').nullable().optional(),
  presence_penalty: Penalty.nullable().optional(),
  frequency_penalty: Penalty.nullable().optional(),
  user: z.string().max(256).optional(),
  /** Parley's extension: ground the answer on datasets (and record it in a thread). */
  parley: ParleyCompletionOptions.optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** Text of a message, whether plain or in parts. */
export function textOf(content: z.infer<typeof Content> | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : '')).join('');
}

/** The image URLs of a message's parts, in order. */
export function imagesOf(content: z.infer<typeof Content> | undefined): string[] {
  if (content == null || typeof content === 'string') return [];
  return content.flatMap((part) => {
    const parsed = ImagePart.safeParse(part);
    return parsed.success ? [parsed.data.image_url.url] : [];
  });
}
