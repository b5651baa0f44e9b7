import OpenAI from 'openai';
import { clientCache } from './client-cache.js';
import type { Provider, ProviderEvent, ProviderRequest } from './types.js';
import { ProviderError } from './types.js';

/** Maps the SDK's failures onto codes a caller can act on. */
export function providerErrorFrom(error: unknown, provider: string): ProviderError {
  if (error instanceof ProviderError) return error;
  const status = typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number' ? error.status : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 401 || status === 403) return new ProviderError('upstream_error', `${provider} refused the API key (${status}).`, status);
  if (status === 429) return new ProviderError('rate_limited', `${provider} is rate limiting requests (429).`, status);
  if (status !== undefined) return new ProviderError('upstream_error', `${provider} answered ${status}: ${message}`, status);
  return new ProviderError('upstream_error', `${provider} could not be reached or broke off: ${message}`);
}

/** OpenAI, Ollama, LM Studio, vLLM, llama.cpp server: anything that speaks the chat-completions API. */
export function openAiCompatibleProvider(): Provider {
  const client = clientCache((baseURL, apiKey) => new OpenAI({ baseURL, apiKey: apiKey ?? 'not-needed', maxRetries: 0, timeout: 120_000 }));
  return {
    async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      if (!request.endpoint_url) throw new ProviderError('invalid_argument', 'This model has no endpoint URL.');
      try {
        const stream = await client(request.endpoint_url, request.api_key).chat.completions.create(
          {
            model: request.model,
            messages: request.messages,
            stream: true,
            stream_options: { include_usage: true },
            ...(request.max_tokens ? { max_tokens: request.max_tokens } : {}),
          },
          { signal: request.signal },
        );
        for await (const chunk of stream) {
          const text = chunk.choices[0]?.delta?.content;
          if (text) yield { type: 'delta', text };
          if (chunk.usage) yield { type: 'usage', input_tokens: chunk.usage.prompt_tokens, output_tokens: chunk.usage.completion_tokens };
        }
      } catch (error) {
        if (request.signal.aborted) return;
        throw providerErrorFrom(error, 'The model endpoint');
      }
    },
  };
}
