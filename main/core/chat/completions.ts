import { textOf, type ChatCompletionRequest } from '../../../shared/openai.js';
import { stopList } from '../../../shared/sampling.js';
import { ServiceError } from '../../../shared/errors.js';
import type { AuthedContext } from '../context.js';
import { isoNow } from '../context.js';
import { allModels, chatModels, resolveModel, type ResolvedModel } from '../models/catalog.js';
import type { ChatTurn, Sampling } from '../providers/types.js';
import { estimateTokens } from '../tokens.js';
import { extractFeatures } from '../routing/features.js';
import { route } from '../routing/router.js';
import { answerWithFailover, type AttemptEvent } from './failover.js';

export interface Completion {
  /** The model that answers first (a fail-over may change it: see the `switch` event). */
  model: ResolvedModel;
  events: AsyncIterable<AttemptEvent>;
}

function toTurns(request: ChatCompletionRequest): ChatTurn[] {
  return request.messages
    .map((m): ChatTurn => ({ role: m.role === 'system' || m.role === 'developer' ? 'system' : m.role === 'assistant' ? 'assistant' : 'user', content: textOf(m.content) }))
    .filter((t) => t.content.length > 0);
}

/**
 * The OpenAI-compatible facade's core: `model: "auto"` is dynamic routing (with fail-over), any
 * model id names that model. Stateless like the API it imitates: no thread is stored, only usage.
 */
export function startCompletion(ctx: AuthedContext, request: ChatCompletionRequest, signal: AbortSignal): Completion {
  const turns = toTurns(request);
  const last = turns.filter((t) => t.role === 'user').at(-1);
  if (!last) throw new ServiceError('invalid_argument', 'messages must contain a user message with text.', [{ path: 'messages', message: 'no user message' }]);
  let candidates: ResolvedModel[];
  if (request.model === 'auto') {
    const features = extractFeatures({ message: last.content, context: turns, dataset_count: 0, agentic: false });
    const decision = route(features, chatModels(ctx), (id) => ctx.runtime.health.health(id), ctx.config().routing);
    candidates = decision.ranked.map((id) => resolveModel(ctx, id));
  } else {
    const found = allModels(ctx).find((m) => m.id === request.model);
    if (!found) throw new ServiceError('not_found', `No model ${request.model}; GET /v1/models lists them, and "auto" routes automatically.`);
    candidates = [resolveModel(ctx, found.id)];
  }
  const first = candidates[0];
  if (!first) throw new ServiceError('unavailable', 'No model is available to answer.');
  const sampling: Sampling = {
    temperature: request.temperature ?? undefined,
    top_p: request.top_p ?? undefined,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    stop: stopList(request.stop),
  };

  async function* withUsage(): AsyncIterable<AttemptEvent> {
    // Shutdown waits for this answer (and cuts it short), so its usage is recorded before the close.
    let release = () => {};
    void ctx.runtime.lifecycle.track(new Promise<void>((resolve) => (release = resolve)));
    let modelId = first?.model.id ?? '';
    let usage: { input_tokens: number; output_tokens: number } | null = null;
    let text = '';
    try {
      for await (const event of answerWithFailover(ctx.runtime, candidates, { turns, passages: [], hasDatasets: false, signal, failOver: request.model === 'auto', sampling })) {
        if (event.type === 'switch') modelId = event.model.model.id;
        else if (event.type === 'delta') text += event.text;
        else if (event.type === 'usage') usage = { input_tokens: event.input_tokens, output_tokens: event.output_tokens };
        yield event;
      }
    } finally {
      const counted = usage ?? { input_tokens: estimateTokens(turns.map((t) => t.content).join('\n')), output_tokens: estimateTokens(text) };
      try {
        ctx.repos.usage.record({ user_id: ctx.caller.user.id, model_id: modelId, source: 'openai', message_id: null, ...counted, created_at: isoNow(ctx) });
      } finally {
        release();
      }
    }
  }
  return { model: first, events: withUsage() };
}
