import type { ChatHistoryItem } from 'node-llama-cpp';
import type { LocalModels } from '../local/registry.js';
import type { AgentTurnEvent, AgentTurnRequest, Provider, ProviderEvent, ProviderRequest, Sampling } from '../../platform/ports/providers.js';
import { ProviderError } from '../../platform/ports/providers.js';
import { agentHistory, chatHistory, toolUse, type ToolUse } from '../local/host/llama-cpp-history.js';

/**
 * Local GGUF models through llama.cpp (node-llama-cpp). The request's `endpoint_url` is the GGUF
 * file (model resolution puts it there). The chat template comes from the GGUF (node-llama-cpp
 * resolves it, e.g. ChatML, Llama 3, Qwen; a generic one when it cannot). The answer is written by
 * the local models' runtime (local-models/host/): in the app, a process of its own, so a native
 * crash fails the answer instead of ending Parley. Text streams token by token; an abort stops
 * generation at the next token and frees the sequence.
 */

/** A stream that fails when read, as the generator did when the file was gone. */
async function* failed(error: ProviderError): AsyncIterable<AgentTurnEvent> {
  yield* [];
  throw error;
}

export function llamaCppProvider(local: LocalModels): Provider {
  /** One answer by the local models' runtime (its own process in the app); the grammar of a forced tool call is built there. */
  function generate(request: Pick<ProviderRequest, 'endpoint_url' | 'signal'> & Sampling, history: ChatHistoryItem[], tools: ToolUse, agent: boolean): AsyncIterable<AgentTurnEvent> {
    const path = request.endpoint_url;
    const file = path ? local.byPath(path) : undefined;
    if (!path || !file) return failed(new ProviderError('unavailable', 'This local model’s file is gone (moved or deleted).'));
    if (!file.header) return failed(new ProviderError('unavailable', file.error ?? 'This file is not a GGUF model.'));
    // Only plain data crosses into the model's process: the request's signal and key stay here.
    const { temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format } = request;
    const sampling: Sampling = { temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty, response_format };
    return local.engine.generate({ ...sampling, path, header: file.header, history, tools, agent }, request.signal);
  }

  return {
    stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
      // No functions offered, so no tool call comes: only deltas and usage. Returned as it is, not
      // re-yielded through another generator (one step less per token).
      return generate(request, chatHistory(request.messages), { kind: 'none' }, false) as AsyncIterable<ProviderEvent>;
    },

    agentTurn(request: AgentTurnRequest): AsyncIterable<AgentTurnEvent> {
      return generate(request, agentHistory(request.messages), toolUse(request), true);
    },
  };
}
