import OpenAI from 'openai';
import { clientCache } from './client-cache.js';
import { eventSizedFetch } from './sse-pieces.js';
import type { ChatCompletionChunk, ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, ChatTurn, Provider, ProviderEvent, ProviderRequest, Sampling, ToolCall } from '../../platform/ports/providers.js';
import { realAfter, watchedStream, type After } from './first-byte.js';
import { ProviderError } from '../../platform/ports/providers.js';

export { providerErrorFrom } from './first-byte.js';

/** The neutral agent transcript in chat-completions form. */
function openAiMessage(turn: AgentTurn): ChatCompletionMessageParam {
  if (turn.role === 'tool') return { role: 'tool', tool_call_id: turn.tool_call_id, content: turn.content };
  if ('tool_calls' in turn) {
    return {
      role: 'assistant',
      content: turn.content || null,
      tool_calls: turn.tool_calls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })),
    };
  }
  return chatMessage(turn);
}

/** A plain turn; a user turn with images as content parts, the way vision models take them. */
function chatMessage(turn: ChatTurn): ChatCompletionMessageParam {
  if (turn.role === 'user' && turn.images?.length) {
    const parts: ChatCompletionContentPart[] = [
      ...(turn.content ? [{ type: 'text' as const, text: turn.content }] : []),
      ...turn.images.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
    ];
    return { role: 'user', content: parts };
  }
  return { role: turn.role, content: turn.content };
}

/** The request's sampling in chat-completions terms: only what was set, so the server's defaults hold otherwise. */
function samplingParams(request: Sampling) {
  return {
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.top_p !== undefined ? { top_p: request.top_p } : {}),
    ...(request.max_tokens ? { max_tokens: request.max_tokens } : {}),
    ...(request.stop?.length ? { stop: request.stop } : {}),
    ...(request.seed !== undefined ? { seed: request.seed } : {}),
    ...(request.presence_penalty !== undefined ? { presence_penalty: request.presence_penalty } : {}),
    ...(request.frequency_penalty !== undefined ? { frequency_penalty: request.frequency_penalty } : {}),
    ...(request.user !== undefined ? { user: request.user } : {}),
    ...(request.response_format === undefined
      ? {}
      : {
          response_format:
            request.response_format.type === 'json_object'
              ? { type: 'json_object' as const }
              : {
                  type: 'json_schema' as const,
                  json_schema: { name: request.response_format.name, schema: request.response_format.schema, ...(request.response_format.strict != null ? { strict: request.response_format.strict } : {}) },
                },
        }),
  };
}

const NAME = 'The model endpoint';

/** A chunk's text, its length stop and its usage, the same in a plain answer and an agent's turn. */
function* chunkEvents(chunk: ChatCompletionChunk): Iterable<ProviderEvent> {
  const choice = chunk.choices[0];
  if (choice?.delta?.content) yield { type: 'delta', text: choice.delta.content };
  if (choice?.finish_reason === 'length') yield { type: 'finish', reason: 'length' };
  if (chunk.usage) yield { type: 'usage', input_tokens: chunk.usage.prompt_tokens, output_tokens: chunk.usage.completion_tokens };
}

/** OpenAI, Ollama, LM Studio, vLLM, llama.cpp server: anything that speaks the chat-completions API. */
export function openAiCompatibleProvider(options: { after?: After } = {}): Provider {
  const after = options.after ?? realAfter;
  const client = clientCache((baseURL, apiKey) => new OpenAI({ baseURL, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: 120_000, fetch: eventSizedFetch }));
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      if (!request.endpoint_url) throw new ProviderError('invalid_argument', 'This model has no endpoint URL.');
      const endpoint = request.endpoint_url;
      yield* watchedStream(
        request,
        NAME,
        after,
        (signal) =>
          client(endpoint, request.api_key).chat.completions.create(
            { model: request.model, messages: request.messages.map(chatMessage), stream: true, stream_options: { include_usage: true }, ...samplingParams(request) },
            { signal },
          ),
        (chunk) => chunkEvents(chunk),
      );
    },

    async *agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      if (!request.endpoint_url) throw new ProviderError('invalid_argument', 'This model has no endpoint URL.');
      const endpoint = request.endpoint_url;
      // Tool calls arrive in pieces keyed by index: the id and name first, the arguments in fragments.
      const calls = new Map<number, ToolCall>();
      const ended = yield* watchedStream(
        request,
        NAME,
        after,
        (signal) =>
          client(endpoint, request.api_key).chat.completions.create(
            {
              model: request.model,
              messages: request.messages.map(openAiMessage),
              stream: true,
              stream_options: { include_usage: true },
              ...(request.tools.length > 0
                ? {
                    tools: request.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
                    tool_choice: typeof request.tool_choice === 'string' ? request.tool_choice : { type: 'function' as const, function: { name: request.tool_choice.name } },
                    ...(request.parallel_tool_calls !== undefined ? { parallel_tool_calls: request.parallel_tool_calls } : {}),
                  }
                : {}),
              ...samplingParams(request),
            },
            { signal },
          ),
        (chunk) => {
          for (const piece of chunk.choices[0]?.delta?.tool_calls ?? []) {
            const call = calls.get(piece.index) ?? { id: '', name: '', arguments: '' };
            if (piece.id) call.id = piece.id;
            if (piece.function?.name) call.name += piece.function.name;
            if (piece.function?.arguments) call.arguments += piece.function.arguments;
            calls.set(piece.index, call);
          }
          return chunkEvents(chunk);
        },
      );
      if (!ended) return;
      for (const [index, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
        yield { type: 'tool_call', call: { ...call, id: call.id || `call_${index}` } };
      }
    },
  };
}
