import { imagesOf, textOf, type ChatCompletionRequest } from '../../../../shared/openai.js';
import { ServiceError } from '../../../../shared/errors.js';
import type { Model } from '../../../../shared/operations/models.js';
import type { AuthedSlice } from '../../platform/context.js';
import { chatModelNamed, chatModels, resolveModel, type ResolvedModel } from '../../models/catalog/catalog.js';
import type { AgentTurn, ChatTurn } from '../../platform/ports/providers.js';
import { extractFeatures } from '../../models/routing/features.js';
import { route } from '../../models/routing/router.js';
import { answerWithFailover, type CallerTools } from '../../answering/index.js';
import { completionSampling, metered, type CompletionEvent } from './completion-meter.js';
import { readsImages } from '../../models/catalog/vision.js';
import { cannotReadImages, noModelReadsImages } from './images.js';

export interface Completion {
  /** The model that answers first (a fail-over may change it: see the `switch` event). */
  model: ResolvedModel;
  /** `citations` ends an answer grounded on datasets (`parley` in the request: completion-grounding.ts). */
  events: AsyncIterable<CompletionEvent>;
}

const roleOf = (role: ChatCompletionRequest['messages'][number]['role']): ChatTurn['role'] =>
  role === 'system' || role === 'developer' ? 'system' : role === 'assistant' ? 'assistant' : 'user';

function toTurns(request: ChatCompletionRequest): ChatTurn[] {
  return request.messages
    .filter((m) => m.role !== 'tool')
    .map((m): ChatTurn => {
      const images = m.role === 'user' ? imagesOf(m.content) : [];
      return { role: roleOf(m.role), content: textOf(m.content), ...(images.length > 0 ? { images } : {}) };
    })
    .filter((t) => t.content.length > 0 || (t.images?.length ?? 0) > 0);
}

/** The conversation with its tool calls and results, in the providers' neutral form. */
function toTranscript(request: ChatCompletionRequest): AgentTurn[] {
  const names = new Map<string, string>();
  const out: AgentTurn[] = [];
  for (const m of request.messages) {
    if (m.role === 'assistant' && m.tool_calls?.length) {
      for (const c of m.tool_calls) names.set(c.id, c.function.name);
      out.push({ role: 'assistant', content: textOf(m.content), tool_calls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) });
    } else if (m.role === 'tool') {
      const id = m.tool_call_id ?? '';
      out.push({ role: 'tool', tool_call_id: id, name: names.get(id) ?? m.name ?? '', content: textOf(m.content) });
    } else {
      const images = m.role === 'user' ? imagesOf(m.content) : [];
      const turn: ChatTurn = { role: roleOf(m.role), content: textOf(m.content), ...(images.length > 0 ? { images } : {}) };
      if (turn.content.length > 0 || images.length > 0) out.push(turn);
    }
  }
  return out;
}

/** The caller's tools, or undefined when the request neither offers tools nor carries a tool exchange. */
function callerTools(request: ChatCompletionRequest): CallerTools | undefined {
  const tools = request.tools ?? [];
  const exchange = request.messages.some((m) => m.role === 'tool' || (m.role === 'assistant' && (m.tool_calls?.length ?? 0) > 0));
  if (tools.length === 0 && !exchange) {
    if (request.tool_choice && request.tool_choice !== 'none' && request.tool_choice !== 'auto') {
      throw new ServiceError('invalid_argument', 'tool_choice asks for a tool call, but no tools are given.', [{ path: 'tool_choice', message: 'no tools given' }]);
    }
    return undefined;
  }
  const choice = request.tool_choice ?? 'auto';
  let tool_choice: CallerTools['tool_choice'];
  if (typeof choice === 'string') tool_choice = tools.length === 0 ? 'none' : choice;
  else {
    const name = choice.function.name;
    if (!tools.some((t) => t.function.name === name)) {
      throw new ServiceError('invalid_argument', `tool_choice names ${name}, which is not among the tools given.`, [{ path: 'tool_choice', message: 'not among tools' }]);
    }
    tool_choice = { name };
  }
  return {
    transcript: toTranscript(request),
    tools: tools.map((t) => ({ name: t.function.name, description: t.function.description ?? '', parameters: t.function.parameters ?? { type: 'object', properties: {} } })),
    tool_choice,
    ...(request.parallel_tool_calls != null ? { parallel_tool_calls: request.parallel_tool_calls } : {}),
  };
}

/**
 * Why `model` cannot answer this request, as the 400 says it; null when it can. Images go by the
 * model's "Reads images" mark, the rule POST /chat follows too (models/catalog/vision.ts).
 */
function unfit(model: Model, needs: { images: boolean; tools: boolean }): ServiceError | null {
  if (needs.images && !readsImages(model)) return cannotReadImages(model, 'messages');
  if (needs.tools && model.provider === 'extractive') {
    const detail = `${model.name} cannot call tools: choose another model.`;
    return new ServiceError('invalid_argument', detail, [{ path: 'tools', message: detail }]);
  }
  return null;
}

/**
 * The OpenAI-compatible facade's core: `model: "auto"` is dynamic routing (with fail-over), any
 * model id names that model. Stateless like the API it imitates: no thread is stored, only usage.
 */
export function startCompletion(ctx: AuthedSlice<'repos' | 'config' | 'now', 'local' | 'health' | 'secrets' | 'providers' | 'liveConfig' | 'lifecycle'>, request: ChatCompletionRequest, signal: AbortSignal): Completion {
  const turns = toTurns(request);
  const last = turns.filter((t) => t.role === 'user').at(-1);
  if (!last) throw new ServiceError('invalid_argument', 'messages must contain a user message with text.', [{ path: 'messages', message: 'no user message' }]);
  const tools = callerTools(request);
  const needs = { images: turns.some((t) => (t.images?.length ?? 0) > 0), tools: tools !== undefined };
  let candidates: ResolvedModel[];
  if (request.model === 'auto') {
    const features = extractFeatures({ message: last.content, context: turns, dataset_count: 0, agentic: false });
    const able = chatModels(ctx).filter((m) => unfit(m, needs) === null);
    const decision = route(features, able, (id) => ctx.runtime.health.health(id), ctx.config().routing);
    candidates = decision.ranked.map((id) => resolveModel(ctx, id));
    if (candidates.length === 0 && needs.images) throw noModelReadsImages('messages');
    if (candidates.length === 0 && needs.tools) throw new ServiceError('invalid_argument', 'No model available here can take tools.', [{ path: 'tools', message: 'no model can take it' }]);
  } else {
    const found = chatModelNamed(ctx, request.model);
    const why = unfit(found, needs);
    if (why) throw why;
    candidates = [resolveModel(ctx, found.id)];
  }
  const first = candidates[0];
  if (!first) throw new ServiceError('unavailable', 'No model is available to answer.');
  const sampling = completionSampling(ctx, request);
  const run = answerWithFailover(ctx.runtime, candidates, { turns, passages: [], hasDatasets: false, signal, failOver: request.model === 'auto', sampling, tools });
  return { model: first, events: metered(ctx, { modelId: first.model.id, prompt: turns.map((t) => t.content).join('\n'), signal }, run) };
}
