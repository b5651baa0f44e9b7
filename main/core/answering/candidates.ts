import type { Routing } from '../../../shared/events.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { QuotaExhausted } from '../platform/auth/quota.js';
import type { HealthRecorder } from '../platform/ports/model-health.js';
import type { ResolvedModel } from '../models/catalog/catalog.js';
import { ProviderError } from '../platform/ports/providers.js';
import { redactSecrets } from '../platform/secrets/redact.js';
import { AnswerFailed } from './answer-failed.js';
import { errorText } from '../../../shared/errors.js';

export type Skip = Routing['skipped'][number];
/** A later candidate takes over from ones that failed before their first output. */
export type SwitchEvent = { type: 'switch'; model: ResolvedModel; skipped: Skip[] };

/**
 * The one fail-over rule, for plain answers and agents alike: candidates are tried in order; one
 * whose circuit is open is skipped while another remains; one that fails before its first output
 * (anything but usage) is skipped, recorded, and the next answers; a failure after it, or of the
 * last candidate, throws AnswerFailed. Every outcome feeds the health tracker the router reads.
 */
export async function* overCandidates<E extends { type: string }>(
  health: HealthRecorder,
  candidates: readonly ResolvedModel[],
  options: {
    failOver: boolean;
    signal: AbortSignal;
    /** Whether an event is the model's own output (by default anything but usage and finish); after it, no other candidate may take over. */
    isOutput?: ((event: E) => boolean) | undefined;
  },
  /** `last`: no other candidate follows, so giving this one up early would leave no answer at all. */
  attempt: (candidate: ResolvedModel, position: { last: boolean }) => AsyncIterable<E>,
): AsyncGenerator<E | SwitchEvent> {
  const skipped: Skip[] = [];
  for (const [index, candidate] of candidates.entries()) {
    const last = index === candidates.length - 1 || !options.failOver;
    if (!last && !health.tryAcquire(candidate.model.id)) {
      skipped.push({ model_id: candidate.model.id, code: 'unavailable', detail: 'Skipped: it failed repeatedly and is cooling down.' });
      continue;
    }
    if (skipped.length > 0) yield { type: 'switch', model: candidate, skipped: [...skipped] };
    const started = performance.now();
    let produced = false;
    try {
      for await (const event of attempt(candidate, { last })) {
        if (!produced && (options.isOutput ? options.isOutput(event) : event.type !== 'usage' && event.type !== 'finish')) {
          produced = true;
          health.recordSuccess(candidate.model.id, performance.now() - started);
        }
        yield event;
      }
      if (!produced && !options.signal.aborted) health.recordSuccess(candidate.model.id, performance.now() - started);
      return;
    } catch (error) {
      // A spent trial quota is the caller's limit, not the model's failure: no failover, no health mark.
      if (error instanceof QuotaExhausted) throw new AnswerFailed(error.code, error.message);
      health.recordFailure(candidate.model.id);
      const code: ErrorCode = error instanceof ProviderError ? error.code : 'upstream_error';
      const detail = redactSecrets(errorText(error), [candidate.api_key]);
      if (produced || last) throw new AnswerFailed(code, detail);
      skipped.push({ model_id: candidate.model.id, code, detail });
    }
  }
}
