import Anthropic from '@anthropic-ai/sdk';
import type { ImageBlockParam, MessageParam, RawMessageStreamEvent, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { clientCache } from './client-cache.js';
import { parseToolArguments } from './tool-arguments.js';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, ChatTurn, OutputFormat, Provider, ProviderEvent, ProviderRequest, Sampling, ToolCall } from '../../platform/ports/providers.js';
import { ProviderError } from '../../platform/ports/providers.js';
import { realAfter, watchedStream, type After } from './first-byte.js';

const DEFAULT_MAX_TOKENS = 4096;
const NAME = 'Anthropic';

/**
 * A streamed event's text, its stop (length, or a stop sequence) and the usage, the same in a plain
 * answer and an agent's turn; the input tokens come first (`message_start`) and are kept in `usage`.
 */
function* messageEvents(event: RawMessageStreamEvent, usage: { input: number }): Iterable<ProviderEvent> {
  if (event.type === 'message_start') usage.input = event.message.usage.input_tokens;
  else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'delta', text: event.delta.text };
  else if (event.type === 'message_delta') {
    if (event.delta.stop_reason === 'max_tokens') yield { type: 'finish', reason: 'length' };
    else if (event.delta.stop_reason === 'stop_sequence' && event.delta.stop_sequence) yield { type: 'finish', reason: 'stop', stop_sequence: event.delta.stop_sequence };
    yield { type: 'usage', input_tokens: usage.input, output_tokens: event.usage.output_tokens };
  }
}

/**
 * The request's sampling in Messages API terms. Its temperature stops at 1 (OpenAI's at 2), and
 * recent Claude models refuse `temperature` and `top_p` together (many clients send both): then
 * the temperature alone is sent.
 */
function samplingParams(request: Sampling) {
  return {
    max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
    ...(request.temperature !== undefined ? { temperature: Math.min(1, request.temperature) } : request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.stop?.length ? { stop_sequences: request.stop } : {}),
    ...(request.user !== undefined ? { metadata: { user_id: request.user } } : {}),
  };
}

const DATA_URL = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.*)$/s;

/** An image URL as a Messages API block: a base64 `data:` URL as its bytes, an http(s) URL by reference. */
function imageBlock(url: string): ImageBlockParam {
  const data = DATA_URL.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1] as 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp', data: data[2]! } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw new ProviderError('invalid_argument', 'Anthropic takes images as http(s) URLs or base64 data URLs of JPEG, PNG, GIF or WebP.');
}

/** A plain turn; a user turn with images as text and image blocks. */
function plainMessage(turn: ChatTurn & { role: 'user' | 'assistant' }): MessageParam {
  if (turn.role !== 'user' || !turn.images?.length) return { role: turn.role, content: turn.content };
  const text: TextBlockParam[] = turn.content ? [{ type: 'text', text: turn.content }] : [];
  return { role: 'user', content: [...turn.images.map(imageBlock), ...text] };
}

/**
 * The Messages API has no JSON mode: the format becomes an instruction at the end of the system
 * prompt (a request for JSON is honoured by Claude models; nothing holds them to it as a grammar would).
 */
function withFormat(system: string, format: OutputFormat | undefined): string {
  if (!format) return system;
  const instruction =
    format.type === 'json_object'
      ? 'Answer with one JSON object only: no prose, no code fence.'
      : `Answer with one JSON object only (no prose, no code fence) that validates against this JSON Schema (${format.name}):\n${JSON.stringify(format.schema)}`;
  return system ? `${system}\n\n${instruction}` : instruction;
}

/** The neutral agent transcript as Messages API turns: tool results become the user's `tool_result` blocks. */
function anthropicMessages(turns: AgentTurn[]): MessageParam[] {
  const out: MessageParam[] = [];
  for (const turn of turns) {
    if (turn.role === 'system') continue;
    if (turn.role === 'tool') {
      const block: ToolResultBlockParam = { type: 'tool_result', tool_use_id: turn.tool_call_id, content: turn.content };
      const last = out.at(-1);
      // Results of one assistant turn's calls go back together, in one user turn.
      if (last?.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
    } else if ('tool_calls' in turn) {
      out.push({
        role: 'assistant',
        content: [
          ...(turn.content ? [{ type: 'text' as const, text: turn.content }] : []),
          ...turn.tool_calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: parseToolArguments(c.arguments) })),
        ],
      });
    } else {
      out.push(plainMessage({ ...turn, role: turn.role }));
    }
  }
  return out;
}

/** OpenAI's `required` is Anthropic's `any`; `parallel_tool_calls: false` is `disable_parallel_tool_use`. */
function anthropicToolChoice(request: AgentTurnRequest) {
  const choice = request.tool_choice;
  const parallel = request.parallel_tool_calls === false && choice !== 'none' ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' as const };
  if (choice === 'auto') return { type: 'auto' as const, ...parallel };
  if (choice === 'required') return { type: 'any' as const, ...parallel };
  return { type: 'tool' as const, name: choice.name, ...parallel };
}

/** Anthropic's Messages API through its official SDK; system turns become the `system` field. */
export function anthropicProvider(options: { after?: After } = {}): Provider {
  const after = options.after ?? realAfter;
  const client = clientCache(
    (baseURL, apiKey) => new Anthropic({ apiKey: apiKey ?? 'missing', maxRetries: 0, timeout: 120_000, ...(baseURL ? { baseURL } : {}) }),
  );
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const system = withFormat(request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n'), request.response_format);
      const turns = request.messages.flatMap((m) => (m.role === 'system' ? [] : [plainMessage({ ...m, role: m.role })]));
      const usage = { input: 0 };
      yield* watchedStream(
        request,
        NAME,
        after,
        (signal) =>
          client(request.endpoint_url, request.api_key).messages.create(
            { model: request.model, messages: turns, stream: true, ...samplingParams(request), ...(system ? { system } : {}) },
            { signal },
          ),
        (event) => messageEvents(event, usage),
      );
    },

    async *agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      const system = withFormat(request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n\n'), request.response_format);
      const calls = new Map<number, ToolCall>();
      const usage = { input: 0 };
      const ended = yield* watchedStream(
        request,
        NAME,
        after,
        (signal) =>
          client(request.endpoint_url, request.api_key).messages.create(
            {
              model: request.model,
              ...samplingParams(request),
              messages: anthropicMessages(request.messages),
              stream: true,
              ...(system ? { system } : {}),
              ...(request.tools.length > 0
                ? {
                    tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: { ...t.parameters, type: 'object' as const } })),
                    tool_choice: anthropicToolChoice(request),
                  }
                : {}),
            },
            { signal },
          ),
        (event) => {
          if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
            calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
          } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
            const call = calls.get(event.index);
            if (call) call.arguments += event.delta.partial_json;
          }
          return messageEvents(event, usage);
        },
      );
      if (!ended) return;
      for (const [, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) yield { type: 'tool_call', call: { ...call, arguments: call.arguments || '{}' } };
    },
  };
}
