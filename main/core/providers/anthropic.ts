import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { clientCache } from './client-cache.js';
import { providerErrorFrom } from './openai-compatible.js';
import { parseToolArguments } from './tool-arguments.js';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, Provider, ProviderEvent, ProviderRequest, ToolCall } from './types.js';

const DEFAULT_MAX_TOKENS = 4096;

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
export function anthropicProvider(): Provider {
  const client = clientCache(
    (baseURL, apiKey) => new Anthropic({ apiKey: apiKey ?? 'missing', maxRetries: 0, timeout: 120_000, ...(baseURL ? { baseURL } : {}) }),
  );
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
      const turns = request.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content }));
      try {
        const stream = await client(request.endpoint_url, request.api_key).messages.create(
          { model: request.model, max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS, messages: turns, stream: true, ...(system ? { system } : {}) },
          { signal: request.signal },
        );
        let input = 0;
        for await (const event of stream) {
          if (event.type === 'message_start') input = event.message.usage.input_tokens;
          else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'delta', text: event.delta.text };
          else if (event.type === 'message_delta') yield { type: 'usage', input_tokens: input, output_tokens: event.usage.output_tokens };
        }
      } catch (error) {
        if (request.signal.aborted) return;
        throw providerErrorFrom(error, 'Anthropic');
      }
    },

    async *agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      const system = request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : [])).join('\n\n');
      const calls = new Map<number, ToolCall>();
      try {
        const stream = await client(request.endpoint_url, request.api_key).messages.create(
          {
            model: request.model,
            max_tokens: request.max_tokens ?? DEFAULT_MAX_TOKENS,
            messages: anthropicMessages(request.messages),
            stream: true,
            ...(system ? { system } : {}),
            ...(request.tools.length > 0
              ? {
                  tools: request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: { ...t.parameters, type: 'object' as const } })),
                  tool_choice: { type: request.tool_choice },
                }
              : {}),
          },
          { signal: request.signal },
        );
        let input = 0;
        for await (const event of stream) {
          if (event.type === 'message_start') input = event.message.usage.input_tokens;
          else if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
            calls.set(event.index, { id: event.content_block.id, name: event.content_block.name, arguments: '' });
          } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'delta', text: event.delta.text };
          else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
            const call = calls.get(event.index);
            if (call) call.arguments += event.delta.partial_json;
          } else if (event.type === 'message_delta') yield { type: 'usage', input_tokens: input, output_tokens: event.usage.output_tokens };
        }
      } catch (error) {
        if (request.signal.aborted) return;
        throw providerErrorFrom(error, 'Anthropic');
      }
      for (const [, call] of [...calls.entries()].sort((a, b) => a[0] - b[0])) yield { type: 'tool_call', call: { ...call, arguments: call.arguments || '{}' } };
    },
  };
}
