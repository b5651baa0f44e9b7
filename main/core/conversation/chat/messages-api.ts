import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { ContentBlock, ImageBlock, MessagesRequest } from '../../../../shared/anthropic.js';
import type { ChatCompletionRequest } from '../../../../shared/openai.js';
import type { Completion } from './completions.js';

/**
 * Anthropic's Messages API (`POST /v1/messages`) as a translation over the OpenAI-shaped
 * completion core: the request becomes a `ChatCompletionRequest`, the completion's events become
 * Anthropic's stream events. One mapping serves both answers: the whole message is the fold of
 * the stream, so streamed and plain answers cannot disagree.
 */

type OpenAiRequest = z.input<typeof ChatCompletionRequest>;
type OpenAiMessage = OpenAiRequest['messages'][number];
type OpenAiPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

const imageUrl = (block: ImageBlock): string =>
  block.source.type === 'base64' ? `data:${block.source.media_type};base64,${block.source.data}` : block.source.url;

function resultText(block: Extract<ContentBlock, { type: 'tool_result' }>): string {
  const content = block.content ?? '';
  const text = typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  // OpenAI's tool message has no error flag: the model learns it from the text.
  return block.is_error ? `Error: ${text}` : text;
}

function userMessages(content: ContentBlock[]): OpenAiMessage[] {
  // OpenAI wants each tool result as its own message right after the assistant's calls, so they
  // go first; the user's own text and images follow as one message.
  const out: OpenAiMessage[] = [];
  const parts: OpenAiPart[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      out.push({ role: 'tool', tool_call_id: block.tool_use_id, content: resultText(block) });
      const images = typeof block.content === 'string' ? [] : (block.content ?? []).filter((part) => part.type === 'image');
      for (const image of images) parts.push({ type: 'image_url', image_url: { url: imageUrl(image) } });
    } else if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push({ type: 'image_url', image_url: { url: imageUrl(block) } });
  }
  if (parts.length > 0) out.push({ role: 'user', content: parts.every((p) => p.type === 'text') ? parts.map((p) => p.text).join('\n') : parts });
  return out;
}

function assistantMessage(content: ContentBlock[]): OpenAiMessage {
  const text = content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  const calls = content.flatMap((block) =>
    block.type === 'tool_use' ? [{ id: block.id, type: 'function' as const, function: { name: block.name, arguments: JSON.stringify(block.input) } }] : [],
  );
  return { role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
}

function toolChoice(choice: MessagesRequest['tool_choice']): Pick<OpenAiRequest, 'tool_choice' | 'parallel_tool_calls'> {
  if (!choice) return {};
  const parallel = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true ? { parallel_tool_calls: false } : {};
  switch (choice.type) {
    case 'auto':
      return { tool_choice: 'auto', ...parallel };
    case 'any':
      return { tool_choice: 'required', ...parallel };
    case 'none':
      return { tool_choice: 'none' };
    case 'tool':
      return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
  }
}

/** The Anthropic request as the completion core takes it. */
export function toCompletionRequest(request: MessagesRequest): OpenAiRequest {
  const messages: OpenAiMessage[] = [];
  const system = typeof request.system === 'string' ? request.system : (request.system ?? []).map((block) => block.text).join('\n');
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    const blocks = message.content;
    if (message.role === 'assistant') messages.push(assistantMessage(blocks));
    else if (message.role === 'system') messages.push({ role: 'system', content: blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') });
    else messages.push(...userMessages(blocks));
  }
  return {
    model: request.model,
    messages,
    max_tokens: request.max_tokens,
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.stop_sequences && request.stop_sequences.length > 0 ? { stop: request.stop_sequences } : {}),
    ...(request.metadata?.user_id ? { user: request.metadata.user_id } : {}),
    ...(request.tools && request.tools.length > 0
      ? { tools: request.tools.map((tool) => ({ type: 'function' as const, function: { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.input_schema } })) }
      : {}),
    ...toolChoice(request.tool_choice),
  };
}

// ---------------------------------------------------------------------------------------------
// The answer.

export type StopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';
export type OutputBlock = { type: 'text'; text: string; citations: null } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: null;
  cache_read_input_tokens: null;
}
export interface AnthropicMessageBody {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: OutputBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: Usage;
}

export type MessageStreamEvent =
  | { type: 'message_start'; message: AnthropicMessageBody }
  | { type: 'content_block_start'; index: number; content_block: { type: 'text'; text: ''; citations: null } | { type: 'tool_use'; id: string; name: string; input: Record<string, never> } }
  | { type: 'ping' }
  | { type: 'content_block_delta'; index: number; delta: { type: 'text_delta'; text: string } | { type: 'input_json_delta'; partial_json: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: StopReason; stop_sequence: string | null }; usage: { input_tokens: number; output_tokens: number } }
  | { type: 'message_stop' };

export const newMessageId = (): string => `msg_${randomUUID().replaceAll('-', '')}`;

/** Arguments a model wrote, as the object Anthropic's `input` is (`{}` when they are not a JSON object). */
export function parseInput(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // A model's malformed arguments: the client sees an empty input rather than a failed request.
  }
  return {};
}

/**
 * Anthropic's stream events in its order: `message_start`, then per block `content_block_start`
 * (a `ping` after the first), its deltas and `content_block_stop`, then `message_delta` (stop
 * reason, usage) and `message_stop`. `message_start` waits for the completion's first output, so
 * a failure before it (or a fail-over to another model) happens before anything is sent.
 */
export async function* messageEvents(completion: Completion, id: string): AsyncGenerator<MessageStreamEvent> {
  let model = completion.model.model.id;
  let started = false;
  let pinged = false;
  let open: { index: number; kind: 'text' | 'tool_use' } | null = null;
  let next = 0;
  let usage = { input_tokens: 0, output_tokens: 0 };
  let finish: string | null = null;
  /** The stop string that ended the answer, when the model says which. */
  let stopSequence: string | null = null;
  let calledTools = false;
  const start = (): MessageStreamEvent => {
    started = true;
    return {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: null, cache_read_input_tokens: null } },
    };
  };
  function* close(): Generator<MessageStreamEvent> {
    if (open) yield { type: 'content_block_stop', index: open.index };
    open = null;
  }
  function* ping(): Generator<MessageStreamEvent> {
    if (!pinged) yield { type: 'ping' };
    pinged = true;
  }
  for await (const event of completion.events) {
    if (event.type === 'switch') {
      model = event.model.model.id;
      continue;
    }
    // Grounding on datasets (`parley` in the request) is not offered here, so no citations come.
    if (event.type === 'citations') continue;
    if (event.type === 'usage') usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
    else if (event.type === 'finish') {
      finish = event.reason;
      if (event.reason === 'stop') stopSequence = event.stop_sequence;
    }
    if (!started) yield start();
    if (event.type === 'delta') {
      if (event.text.length === 0) continue;
      if (open?.kind !== 'text') {
        yield* close();
        open = { index: next++, kind: 'text' };
        yield { type: 'content_block_start', index: open.index, content_block: { type: 'text', text: '', citations: null } };
        yield* ping();
      }
      yield { type: 'content_block_delta', index: open.index, delta: { type: 'text_delta', text: event.text } };
    } else if (event.type === 'tool_call') {
      calledTools = true;
      yield* close();
      const index = next++;
      yield { type: 'content_block_start', index, content_block: { type: 'tool_use', id: event.call.id, name: event.call.name, input: {} } };
      yield* ping();
      // The core hands a call over whole: its arguments go out as one delta.
      yield { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(parseInput(event.call.arguments)) } };
      yield { type: 'content_block_stop', index };
    }
  }
  if (!started) yield start();
  yield* close();
  yield* ping();
  const stopReason: StopReason =
    finish === 'length' ? 'max_tokens' : finish === 'tool_calls' || calledTools ? 'tool_use' : stopSequence !== null ? 'stop_sequence' : 'end_turn';
  yield { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: stopReason === 'stop_sequence' ? stopSequence : null }, usage };
  yield { type: 'message_stop' };
}

/** The whole message: the fold of the stream events. */
export async function collectMessage(events: AsyncIterable<MessageStreamEvent>): Promise<AnthropicMessageBody> {
  let message: AnthropicMessageBody | null = null;
  const json = new Map<number, string>();
  for await (const event of events) {
    if (event.type === 'message_start') message = { ...event.message, content: [] };
    if (!message) continue;
    if (event.type === 'content_block_start') {
      message.content[event.index] = event.content_block.type === 'text' ? { ...event.content_block } : { ...event.content_block, input: {} };
    } else if (event.type === 'content_block_delta') {
      const block = message.content[event.index];
      if (block?.type === 'text' && event.delta.type === 'text_delta') block.text += event.delta.text;
      else if (event.delta.type === 'input_json_delta') json.set(event.index, (json.get(event.index) ?? '') + event.delta.partial_json);
    } else if (event.type === 'content_block_stop') {
      const block = message.content[event.index];
      if (block?.type === 'tool_use') block.input = parseInput(json.get(event.index) ?? '{}');
    } else if (event.type === 'message_delta') {
      message.stop_reason = event.delta.stop_reason;
      message.stop_sequence = event.delta.stop_sequence;
      message.usage = { ...message.usage, ...event.usage };
    }
  }
  if (!message) throw new Error('The completion ended without a message.');
  return message;
}
