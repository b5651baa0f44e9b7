import { coalesceDeltas } from './coalesce.js';
import { overCandidates, type Skip, type SwitchEvent } from './candidates.js';
import type { Runtime } from '../platform/context.js';
import type { ResolvedModel } from '../models/catalog/catalog.js';
import type { AgentTurn, AgentTurnEvent, AgentTurnRequest, ChatTurn, Passage, Sampling, ToolSpec } from '../platform/ports/providers.js';
import { ProviderError } from '../platform/ports/providers.js';
import { withPassages } from './grounding.js';

export type { Skip };

/**
 * Provider events, plus a note when a later candidate takes over from ones that failed. A tool call
 * (`{ type: 'tool_call', call: { id, name, arguments } }`, arguments as JSON text) comes only when
 * the request offered tools; `finish` says why an answer ended when it was not a natural stop.
 */
export type AttemptEvent = AgentTurnEvent | SwitchEvent;

/** A caller's own tools (`/v1` `tools`): the model is called through its native tool calling. */
export interface CallerTools {
  /** The conversation with its tool calls and results. */
  transcript: AgentTurn[];
  tools: ToolSpec[];
  tool_choice: AgentTurnRequest['tool_choice'];
  parallel_tool_calls?: boolean | undefined;
}

export interface AttemptRequest {
  turns: ChatTurn[];
  passages: Passage[];
  hasDatasets: boolean;
  signal: AbortSignal;
  /** The request's sampling; unset fields take each model's defaults. */
  sampling?: Sampling | undefined;
  /** Try the next candidate when one fails before its first token (dynamic mode). */
  failOver: boolean;
  /** Set: the caller's tools are offered and the model may call them (`turns` is then unused). */
  tools?: CallerTools | undefined;
}

/** Only remote models wait on a network for their first byte; a local one is loading or computing. */
const REMOTE = new Set(['openai_compatible', 'anthropic']);

/**
 * Calls the candidates in order under the one fail-over rule (answers/candidates.ts). A remote
 * candidate with another after it is given `[providers] first_byte_timeout_s` to start answering;
 * the last one waits as long as its client does, since nobody could answer instead.
 */
/** What of the running service a plain answer uses: the models, their health and the first-byte timeout. */
export type FailoverRuntime = Pick<Runtime, 'providers' | 'health' | 'liveConfig'>;

export function answerWithFailover(runtime: FailoverRuntime, candidates: ResolvedModel[], request: AttemptRequest): AsyncIterable<AttemptEvent> {
  const firstByteMs = runtime.liveConfig.config().providers.first_byte_timeout_s * 1000;
  return overCandidates(runtime.health, candidates, request, (candidate, { last }) => {
    const provider = runtime.providers[candidate.model.provider];
    const deadline = !last && REMOTE.has(candidate.model.provider) ? { first_byte_timeout_ms: firstByteMs } : {};
    if (request.tools) {
      if (!provider.agentTurn) throw new ProviderError('invalid_argument', `${candidate.model.name} cannot call tools.`);
      const { transcript, ...tools } = request.tools;
      return coalesceDeltas<AgentTurnEvent>(
        provider.agentTurn({ model: candidate.model.model, endpoint_url: candidate.endpoint_url, api_key: candidate.api_key, messages: transcript, ...tools, signal: request.signal, ...request.sampling, ...deadline }),
        request.signal,
      );
    }
    return coalesceDeltas<AgentTurnEvent>(
      provider.stream({
        model: candidate.model.model,
        endpoint_url: candidate.endpoint_url,
        api_key: candidate.api_key,
        messages: request.passages.length > 0 && candidate.model.provider !== 'extractive' ? withPassages(request.turns, request.passages, candidate.model.capabilities.context_tokens) : request.turns,
        passages: request.passages,
        has_datasets: request.hasDatasets,
        signal: request.signal,
        ...request.sampling,
        ...deadline,
      }),
      request.signal,
    );
  });
}
