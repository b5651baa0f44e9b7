import { coalesceDeltas } from '../answers/coalesce.js';
import { overCandidates, type Skip, type SwitchEvent } from '../answers/candidates.js';
import type { Runtime } from '../context.js';
import type { ResolvedModel } from '../models/catalog.js';
import type { ChatTurn, Passage, ProviderEvent } from '../providers/types.js';
import { withPassages } from './grounding.js';

export type { Skip };

/** Provider events, plus a note when a later candidate takes over from ones that failed. */
export type AttemptEvent = ProviderEvent | SwitchEvent;

export interface AttemptRequest {
  turns: ChatTurn[];
  passages: Passage[];
  hasDatasets: boolean;
  signal: AbortSignal;
  max_tokens?: number;
  /** Try the next candidate when one fails before its first token (dynamic mode). */
  failOver: boolean;
}

/** Calls the candidates in order under the one fail-over rule (answers/candidates.ts). */
export function answerWithFailover(runtime: Runtime, candidates: ResolvedModel[], request: AttemptRequest): AsyncIterable<AttemptEvent> {
  return overCandidates(runtime.health, candidates, request, (candidate) =>
    coalesceDeltas<ProviderEvent>(
      runtime.providers[candidate.model.provider].stream({
        model: candidate.model.model,
        endpoint_url: candidate.endpoint_url,
        api_key: candidate.api_key,
        messages: request.passages.length > 0 && candidate.model.provider !== 'extractive' ? withPassages(request.turns, request.passages, candidate.model.capabilities.context_tokens) : request.turns,
        passages: request.passages,
        has_datasets: request.hasDatasets,
        signal: request.signal,
        ...(request.max_tokens ? { max_tokens: request.max_tokens } : {}),
      }),
      request.signal,
    ),
  );
}
