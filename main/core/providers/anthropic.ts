import Anthropic from '@anthropic-ai/sdk';
import { clientCache } from './client-cache.js';
import { providerErrorFrom } from './openai-compatible.js';
import type { Provider, ProviderEvent, ProviderRequest } from './types.js';

const DEFAULT_MAX_TOKENS = 4096;

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
  };
}
