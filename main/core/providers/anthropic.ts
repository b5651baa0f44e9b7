import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { clientCache } from './client-cache.js';
import { providerErrorFrom } from './openai-compatible.js';
import { parseToolArguments } from './tool-arguments.js';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, Provider, ProviderEvent, ProviderRequest, Sampling, ToolCall } from './types.js';
import { FirstByteWatch, realAfter, type After } from './first-byte.js';

const DEFAULT_MAX_TOKENS = 4096;
const NAME = 'Anthropic';

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
  };
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
      out.push({ role: turn.role, content: turn.content });
    }
  }
  return out;
}

/** Anthropic's Messages API through its official SDK; system turns become the `system` field. */
export function anthropicProvider(options: { after?: After } = {}): Provider {
  const after = options.after ?? realAfter;
  const client = clientCache(
    (baseURL, apiKey) => new Anthropic({ apiKey: apiKey ?? 'missing', maxRetries: 0, timeout: 120_000, ...(baseURL ? { baseURL } : {}) }),
  );
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
      const turns = request.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
      const watch = new FirstByteWatch(request.signal, request.first_byte_timeout_ms, after);
      try {
        const stream = await client(request.endpoint_url, request.api_key).messages.create(
          { model: request.model, messages: turns, stream: true, ...samplingParams(request), ...(system ? { system } : {}) },
          { signal: watch.signal },
        );
        let input = 0;
        for await (const event of stream) {
          watch.arrived();
          if (event.type === 'message_start') input = event.message.usage.input_tokens;
          else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'delta', text: event.delta.text };
          else if (event.type === 'message_delta') {
            if (event.delta.stop_reason === 'max_tokens') yield { type: 'finish', reason: 'length' };
            yield { type: 'usage', input_tokens: input, output_tokens: event.usage.output_tokens };
          }
        }
        // The SDK ends a stream quietly when its signal aborts: a deadline that struck is still a failure.
        watch.throwIfGivenUp(NAME);
      } catch (error) {
        if (request.signal.aborted) return;
        throw watch.failure(NAME) ?? providerErrorFrom(error, NAME);
      } finally {
        watch.arrived();
      }
    },

    async *agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      const system = request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n\n');
      const calls = new Map<number, ToolCall>();
      const watch = new FirstByteWatch(request.signal, request.first_byte_timeout_ms, after);
      try {
        const stream = await client(request.endpoint_url, request.api_key).messages.create(
          {
            model: request.model,
            ...samplingParams(request),
            messages: anthropicMessages(request.messages),
            stream: true,
            ...(system ? { system } : {}),
            ...(request.tools.length > 0
              ? {
                  tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: { ...t.parameters, type: 'object' as const } })),
                  tool_choice: typeof request.tool_choice === 'string' ? { type: request.tool_choice } : { type: 'tool' as const, name: request.tool_choice.name },
                }
              : {}),
          },
          { signal: watch.signal },
        );
        let input = 0;
        for await (const event of stream) {
          watch.arrived();
          if (event.type === 'message_start') input = event.message.usage.input_tokens;
          else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
            calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
          } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'delta', text: event.delta.text };
          else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
            const call = calls.get(event.index);
            if (call) call.arguments += event.delta.partial_json;
          } else if (event.type === 'message_delta') yield { type: 'usage', input_tokens: input, output_tokens: event.usage.output_tokens };
        }
        // The SDK ends a stream quietly when its signal aborts: a deadline that struck is still a failure.
        watch.throwIfGivenUp(NAME);
      } catch (error) {
        if (request.signal.aborted) return;
        throw watch.failure(NAME) ?? providerErrorFrom(error, NAME);
      } finally {
        watch.arrived();
      }
      for (const [, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) yield { type: 'tool_call', call: { ...call, arguments: call.arguments || '{}' } };
    },
  };
}
