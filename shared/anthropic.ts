import { z } from 'zod';
import { MaxTokens, Stop, TopP } from './sampling.js';

/**
 * The subset of Anthropic's Messages API request (`POST /v1/messages`) that Parley understands, so
 * that the official SDK and the tools built on it (Claude-compatible clients) work unmodified.
 * Unknown fields (`thinking`, `service_tier`, `cache_control`, …) are accepted and ignored.
 */
const TextBlock = z.looseObject({ type: z.literal('text'), text: z.string() });

const ImageSource = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('base64'), media_type: z.string().regex(/^image\/[\w.+-]+$/, 'must be an image type such as image/png'), data: z.string().min(1) }),
    z.looseObject({ type: z.literal('url'), url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }) }),
  ],
  { error: 'an image source is {type: "base64", media_type, data} or {type: "url", url}' },
);
const ImageBlock = z.looseObject({ type: z.literal('image'), source: ImageSource });

const ToolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  input: z.record(z.string(), z.unknown()),
});

const ToolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1).max(200),
  content: z.union([z.string(), z.array(z.union([TextBlock, ImageBlock]))]).optional(),
  is_error: z.boolean().optional(),
});

/** A reasoning block a client sends back in the history: the models behind Parley cannot read it, so it is dropped. */
const ThinkingBlock = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) });

export const ContentBlock = z.discriminatedUnion('type', [TextBlock, ImageBlock, ToolUseBlock, ToolResultBlock, ThinkingBlock], {
  error: 'a content block is one of text, image, tool_use, tool_result (thinking blocks are ignored)',
});
export type ContentBlock = z.infer<typeof ContentBlock>;
export type ImageBlock = z.infer<typeof ImageBlock>;

export const AnthropicMessage = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  // A string is one text block: as blocks, a bad block is reported at its own path, not as the whole union failing.
  content: z.preprocess((value) => (typeof value === 'string' ? [{ type: 'text', text: value }] : value), z.array(ContentBlock).max(10_000)),
});

const ToolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name is 1 to 64 letters, digits, _ or -');
/** A tool the client runs itself. Anthropic's server tools (web search, code execution…) have a `type` and are refused. */
const Tool = z.looseObject({
  type: z.literal('custom', { error: 'only custom tools ({name, description, input_schema}) are supported; Anthropic server tools are not' }).optional(),
  name: ToolName,
  description: z.string().max(10_000).optional(),
  input_schema: z.record(z.string(), z.unknown()),
});

const ToolChoice = z.discriminatedUnion(
  'type',
  [
    z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
    z.looseObject({ type: z.literal('none') }),
    z.looseObject({ type: z.literal('tool'), name: ToolName, disable_parallel_tool_use: z.boolean().optional() }),
  ],
  { error: 'tool_choice is {type: "auto" | "any" | "none"} or {type: "tool", name}' },
);

export const MessagesRequest = z.looseObject({
  /** A Parley model id, or `auto` for dynamic routing. */
  model: z.string().min(1).max(200),
  /** Required, as on Anthropic's API: the answer stops after this many tokens (`stop_reason: "max_tokens"`). */
  max_tokens: MaxTokens,
  system: z.union([z.string(), z.array(TextBlock).max(1_000)]).optional(),
  messages: z.array(AnthropicMessage).min(1, 'must hold at least one message').max(10_000),
  tools: z.array(Tool).max(128).optional(),
  tool_choice: ToolChoice.optional(),
  /** Anthropic's range. */
  temperature: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
  top_p: TopP.optional(),
  /** Accepted and ignored: the OpenAI shape underneath has no equivalent. */
  top_k: z.number().int().min(0).optional(),
  stop_sequences: z.array(Stop.options[0]).max(16, 'at most 16 stop sequences').optional(),
  stream: z.boolean().optional(),
  metadata: z.looseObject({ user_id: z.string().max(256).nullable().optional() }).optional(),
});
export type MessagesRequest = z.infer<typeof MessagesRequest>;
