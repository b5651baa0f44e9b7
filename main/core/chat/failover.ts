import { QuotaExhausted } from '../auth/quota.js';
import { redactSecrets } from '../secrets/redact.js';
import { AnswerFailed } from '../answers/answer-failed.js';
import { untilAborted } from '../answers/until-aborted.js';
import type { Routing } from '../../../shared/events.js';
import type { ErrorCode } from '../../../shared/errors.js';
import type { Runtime } from '../context.js';
import type { ResolvedModel } from '../models/catalog.js';
import { ProviderError, type ChatTurn, type Passage, type ProviderEvent } from '../providers/types.js';
import { withPassages } from './grounding.js';

export type Skip = Routing['skipped'][number];

/** Provider events, plus a note when a later candidate takes over from ones that failed. */
export type AttemptEvent = ProviderEvent | { type: 'switch'; model: ResolvedModel; skipped: Skip[] };

export interface AttemptRequest {
  turns: ChatTurn[];
  passages: Passage[];
  hasDatasets: boolean;
  signal: AbortSignal;
  max_tokens?: number;
  /** Try the next candidate when one fails before its first token (dynamic mode). */
  failOver: boolean;
}

/**
 * Calls the candidates in order. One that fails before its first token is skipped (recorded) and
 * the next answers; a failure after the first token, or of the last candidate, throws AnswerFailed.
 * Every outcome feeds the health tracker that the router reads.
 */
export async function* answerWithFailover(runtime: Runtime, candidates: ResolvedModel[], request: AttemptRequest): AsyncIterable<AttemptEvent> {
  const skipped: Skip[] = [];
  for (const [attempt, candidate] of candidates.entries()) {
    const last = attempt === candidates.length - 1 || !request.failOver;
    // An open circuit is skipped while another candidate remains; the last one is always tried.
    if (!last && !runtime.health.tryAcquire(candidate.model.id)) {
      skipped.push({ model_id: candidate.model.id, code: 'unavailable', detail: 'Skipped: it failed repeatedly and is cooling down.' });
      continue;
    }
    if (skipped.length > 0) yield { type: 'switch', model: candidate, skipped: [...skipped] };
    const started = performance.now();
    let firstToken = false;
    try {
      const events = runtime.providers[candidate.model.provider].stream({
        model: candidate.model.model,
        endpoint_url: candidate.endpoint_url,
        api_key: candidate.api_key,
        messages: request.passages.length > 0 && candidate.model.provider !== 'extractive' ? withPassages(request.turns, request.passages, candidate.model.capabilities.context_tokens) : request.turns,
        passages: request.passages,
        has_datasets: request.hasDatasets,
        signal: request.signal,
        ...(request.max_tokens ? { max_tokens: request.max_tokens } : {}),
      });
      for await (const event of untilAborted<ProviderEvent>(events, request.signal)) {
        if (!firstToken && event.type !== 'usage') {
          firstToken = true;
          runtime.health.recordSuccess(candidate.model.id, performance.now() - started);
        }
        yield event;
      }
      if (!firstToken && !request.signal.aborted) runtime.health.recordSuccess(candidate.model.id, performance.now() - started);
      return;
    } catch (error) {
      // A spent trial quota is the caller's limit, not the model's failure: no failover, no health mark.
      if (error instanceof QuotaExhausted) throw new AnswerFailed(error.code, error.message);
      runtime.health.recordFailure(candidate.model.id);
      const code: ErrorCode = error instanceof ProviderError ? error.code : 'upstream_error';
      const detail = redactSecrets(error instanceof Error ? error.message : String(error), [candidate.api_key]);
      if (firstToken || last) throw new AnswerFailed(code, detail);
      skipped.push({ model_id: candidate.model.id, code, detail });
    }
  }
}
